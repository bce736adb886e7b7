// Drawbar: the rules core of a Mexican Train bot, in Rust with std alone (a JSON reader
// and writer of its own below), put behind a stdin/stdout loop to test it against the
// suite, written from docs/implementers-guide.md and docs/protocol.md.
//
// Build and run:   rustc --edition 2021 -O -o drawbar drawbar.rs
//                  ./drawbar [--bugs | --fixed]
//
// What it plays (drawbar-rules.yaml says the same to the suite):
//   - a double-17 set (171 tiles), the bot's league box. Round r's engine is the double
//     [18-r, 18-r], set aside before the deal (ENG-1, ENG-2): 18 rounds, down to [0-0];
//   - its own hand sizes, 2 to 8 players: 18, 17, 16, 14, 13, 12, 11 (DEAL-7 refuses any
//     other count);
//   - round r starts at seat (r - 1) mod n (SEAT-3); one tile a turn from the start; the
//     Mexican Train open to anyone; nobody must start their own train first;
//   - doubles are ordinary tiles: nothing to cover, the turn ends (DBL-11);
//   - a pass puts the marker up, the owner's play on their own train takes it off (MARK-3);
//   - a player who cannot play draws one tile, plays it if it fits, else passes;
//   - the lowest match total wins.
//   Three house rules of the league, which no known value describes (`other` in the file):
//   - "dry yard" (blocked_round): the first pass made with the boneyard empty ends the
//     round, blocked; nobody waits for a full round of passes;
//   - "heavy doubles" (scoring): a round's loser pays the pips of the tiles left in hand,
//     a double counted twice ([6-6] costs 24); whoever went out pays nothing, and in a
//     blocked round everybody pays;
//   - "last round decides" (tie_rule): of equal lowest totals the one who paid least in
//     the last round wins; still equal, they share it.
//   They meet: the dry yard ends a round while doubles are still in hand, and the heavy
//   doubles make that round the one that breaks a tie.
//
// It ignores the rule set each request carries: it plays its own rules, as a bot's server
// does. A table its rules never reach (an open double, a chain, an engine to find, a
// double to follow) is answered `unsupported`.
//
// Planted bugs, off unless --bugs is given, written down before any suite command ran:
//   1. "dry-pass" (breaks TURN-1): with the boneyard empty, a pass is offered, and taken,
//      beside the plays the player has, so a player with a play may end the round.
//   2. "empty-is-open" (breaks TRAIN-4): another player's train that holds no tile yet is
//      taken as open to everyone, marker or not.
//   3. "double-redraw" (breaks TURN-4): a drawn double that cannot be played lets its
//      player draw again instead of passing.
//
// Found by the runs (session 62, written after them; nothing above was changed). Bugs
// off, conform under drawbar-rules.yaml: 1,293 pass, 239 not applicable (208 open-double
// tables, 7 engine searches, 5 chains these rules never reach; 10 its scoring decides, 4
// its blocked round, 4 its table, 1 a step its own rule refuses: turn-021's second pass,
// the round over at the first); fuzz (12 games, seed 1) nothing. Bugs on: 243 fail, each
// charged to a clause the bug breaks: TRAIN-4 157 (bug 2); TURN-1 64 and TURN-3 8 (bug
// 1, TURN-3 where the mover's drawn tile was the play kept); TURN-2 4 and TURN-4 10 (bug
// 3: a second draw offered is TURN-2's, the pass withheld TURN-4's). Fuzz (12 games,
// seed 1) found bugs 2 and 3 but not bug 1 (once in 40 games): on double-17 the
// boneyard seldom runs dry while a play is left; since the suite's fix (steer.dry_script)
// the 12 games find all three, nothing else.

use std::io::{self, BufRead, Write};

// ---- JSON -----------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum J {
    Null,
    Bool(bool),
    Num(i64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    fn get(&self, key: &str) -> Option<&J> {
        match self {
            J::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn skip(&mut self) {
        while self.at < self.text.len() && matches!(self.text[self.at], b' ' | b'\t' | b'\r' | b'\n') {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.skip();
        if self.at < self.text.len() && self.text[self.at] == c {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", c as char, self.at))
        }
    }

    fn value(&mut self, depth: usize) -> Result<J, String> {
        if depth > 64 {
            return Err("nested too deep".into());
        }
        self.skip();
        let c = *self.text.get(self.at).ok_or("unexpected end of line")?;
        match c {
            b'{' => {
                self.at += 1;
                let mut fields: Vec<(String, J)> = Vec::new();
                self.skip();
                if self.text.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(J::Obj(fields));
                }
                loop {
                    self.skip();
                    let key = self.string()?;
                    if fields.iter().any(|(k, _)| *k == key) {
                        return Err(format!("key {:?} given twice", key));
                    }
                    self.eat(b':')?;
                    let v = self.value(depth + 1)?;
                    fields.push((key, v));
                    self.skip();
                    match self.text.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(J::Obj(fields));
                        }
                        _ => return Err(format!("expected ',' or '}}' at byte {}", self.at)),
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.skip();
                if self.text.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(J::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.skip();
                    match self.text.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(J::Arr(items));
                        }
                        _ => return Err(format!("expected ',' or ']' at byte {}", self.at)),
                    }
                }
            }
            b'"' => Ok(J::Str(self.string()?)),
            b't' => self.word("true", J::Bool(true)),
            b'f' => self.word("false", J::Bool(false)),
            b'n' => self.word("null", J::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => Err(format!("unexpected '{}' at byte {}", c as char, self.at)),
        }
    }

    fn word(&mut self, w: &str, v: J) -> Result<J, String> {
        if self.text[self.at..].starts_with(w.as_bytes()) {
            self.at += w.len();
            Ok(v)
        } else {
            Err(format!("bad literal at byte {}", self.at))
        }
    }

    fn number(&mut self) -> Result<J, String> {
        let start = self.at;
        if self.text[self.at] == b'-' {
            self.at += 1;
        }
        let digits = self.at;
        while self.at < self.text.len() && self.text[self.at].is_ascii_digit() {
            self.at += 1;
        }
        if self.at == digits || (self.text[digits] == b'0' && self.at - digits > 1) {
            return Err(format!("bad number at byte {}", start));
        }
        if self.at < self.text.len() && matches!(self.text[self.at], b'.' | b'e' | b'E') {
            // a fraction or an exponent: a number, but never one of ours (all integers)
            self.at += 1;
            while self.at < self.text.len()
                && (self.text[self.at].is_ascii_digit() || matches!(self.text[self.at], b'+' | b'-' | b'e' | b'E' | b'.'))
            {
                self.at += 1;
            }
            return Ok(J::Str(String::from("\u{0}not-an-integer")));
        }
        let s = std::str::from_utf8(&self.text[start..self.at]).unwrap();
        s.parse::<i64>().map(J::Num).map_err(|_| format!("number {} out of range", s))
    }

    fn string(&mut self) -> Result<String, String> {
        self.eat(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = *self.text.get(self.at).ok_or("unterminated string")?;
            self.at += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = *self.text.get(self.at).ok_or("unterminated escape")?;
                    self.at += 1;
                    match e {
                        b'"' => out.push(b'"'),
                        b'\\' => out.push(b'\\'),
                        b'/' => out.push(b'/'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let hex = self.text.get(self.at..self.at + 4).ok_or("short \\u escape")?;
                            let code = u32::from_str_radix(std::str::from_utf8(hex).map_err(|_| "bad \\u")?, 16)
                                .map_err(|_| "bad \\u escape")?;
                            self.at += 4;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return Err("bad escape".into()),
                    }
                }
                c if c < 0x20 => return Err("control character in a string".into()),
                c => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| "string is not UTF-8".into())
    }
}

fn parse(line: &str) -> Result<J, String> {
    let mut r = Reader { text: line.as_bytes(), at: 0 };
    let v = r.value(0)?;
    r.skip();
    if r.at != r.text.len() {
        return Err(format!("trailing text at byte {}", r.at));
    }
    Ok(v)
}

fn write(v: &J, out: &mut String) {
    match v {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Num(n) => out.push_str(&n.to_string()),
        J::Str(s) => {
            out.push('"');
            for ch in s.chars() {
                match ch {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        J::Arr(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(x, out);
            }
            out.push(']');
        }
        J::Obj(fields) => {
            out.push('{');
            for (i, (k, x)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(&J::Str(k.clone()), out);
                out.push(':');
                write(x, out);
            }
            out.push('}');
        }
    }
}

fn obj(fields: Vec<(&str, J)>) -> J {
    J::Obj(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn s(text: &str) -> J {
    J::Str(text.to_string())
}

// ---- the league's rules -----------------------------------------------------------------

const TOP: u8 = 17; // double-17
const ROUNDS: i64 = TOP as i64 + 1;
const HANDS: [(usize, usize); 7] = [(2, 18), (3, 17), (4, 16), (5, 14), (6, 13), (7, 12), (8, 11)];

#[derive(Clone, Copy, PartialEq, Debug)]
struct Tile(u8, u8); // high end, low end

impl Tile {
    fn read(text: &str) -> Option<Tile> {
        let (a, b) = text.split_once('-')?;
        let ok = |p: &str| !p.is_empty() && p.len() <= 2 && p.bytes().all(|c| c.is_ascii_digit()) && !(p.len() == 2 && p.starts_with('0'));
        if !ok(a) || !ok(b) {
            return None;
        }
        let (a, b): (u8, u8) = (a.parse().ok()?, b.parse().ok()?);
        if a > 18 || b > 18 {
            return None;
        }
        Some(if a >= b { Tile(a, b) } else { Tile(b, a) })
    }
    fn in_set(self) -> bool {
        self.0 <= TOP
    }
    fn double(self) -> bool {
        self.0 == self.1
    }
    fn fits(self, end: u8) -> bool {
        self.0 == end || self.1 == end
    }
    fn other(self, end: u8) -> u8 {
        if self.0 == end { self.1 } else { self.0 }
    }
    fn name(self) -> String {
        format!("{}-{}", self.0, self.1)
    }
    // "heavy doubles": a double left in hand counts twice
    fn cost(self) -> i64 {
        let pips = self.0 as i64 + self.1 as i64;
        if self.double() { 2 * pips } else { pips }
    }
}

#[derive(Clone)]
struct Train {
    tiles: Vec<(u8, u8)>, // as laid: near end, far end
    end: u8,
    marker: bool,
}

#[derive(Clone)]
struct Outcome {
    end: String,
    winner: Option<usize>,
    scores: Vec<i64>,
}

#[derive(Clone)]
struct Table {
    round: i64,
    engine: u8,
    phase: String,
    seat: usize,
    starter: usize,
    hands: Vec<Vec<Tile>>,
    boneyard: Vec<Tile>,
    trains: Vec<Train>,
    mexican: Train,
    drawn: Option<Tile>,
    first_turns: Vec<usize>,
    passes: i64,
    scores: Vec<i64>,
    outs: Vec<i64>,
    result: Option<Outcome>,
}

#[derive(Clone, Copy, PartialEq)]
enum Where {
    Seat(usize),
    Mexican,
}

#[derive(Clone, Copy, PartialEq)]
enum Move {
    Play(Tile, Where),
    Draw,
    Pass,
    EndChain,
}

struct Bugs {
    dry_pass: bool,
    empty_is_open: bool,
    double_redraw: bool,
}

enum Fault {
    Bad(String),
    Unsupported(String),
    Refused(String, &'static str),
}

fn bad<T>(m: impl Into<String>) -> Result<T, Fault> {
    Err(Fault::Bad(m.into()))
}

fn hand_size(players: usize) -> Option<usize> {
    HANDS.iter().find(|(n, _)| *n == players).map(|(_, h)| *h)
}

// ---- reading a table ----------------------------------------------------------------------

fn int(v: Option<&J>, what: &str) -> Result<i64, Fault> {
    match v {
        Some(J::Num(n)) if *n >= 0 => Ok(*n),
        Some(_) => bad(format!("{} is not a whole number 0 or more", what)),
        None => bad(format!("{} is missing", what)),
    }
}

fn tile(v: &J, what: &str) -> Result<Tile, Fault> {
    match v {
        J::Str(t) => match Tile::read(t) {
            Some(x) if x.in_set() => Ok(x),
            Some(x) => bad(format!("{} {} is not a tile of double-{}", what, x.name(), TOP)),
            None => bad(format!("{} {:?} is not a tile", what, t)),
        },
        _ => bad(format!("{} is not a tile text", what)),
    }
}

fn tiles(v: Option<&J>, what: &str) -> Result<Vec<Tile>, Fault> {
    match v {
        Some(J::Arr(items)) => items.iter().map(|x| tile(x, what)).collect(),
        _ => bad(format!("{} is not a list", what)),
    }
}

fn seats(v: Option<&J>, what: &str, n: usize) -> Result<Vec<i64>, Fault> {
    match v {
        Some(J::Arr(items)) if items.len() == n => items.iter().map(|x| int(Some(x), what)).collect(),
        _ => bad(format!("{} is not a list of {} numbers", what, n)),
    }
}

const STATE_FIELDS: [&str; 18] = [
    "round", "engine", "engine_placed", "phase", "seat", "starter", "hands", "boneyard", "trains", "mexican",
    "open_doubles", "turn_doubles", "drawn", "first_turns", "passes", "scores", "outs", "result",
];

fn train(v: &J, what: &str, mexican: bool) -> Result<Train, Fault> {
    let J::Obj(fields) = v else { return bad(format!("{} is not an object", what)) };
    for (k, _) in fields {
        if !(k == "tiles" || k == "end" || (!mexican && k == "marker")) {
            return bad(format!("{} has an unknown field {:?}", what, k));
        }
    }
    let end = int(v.get("end"), &format!("{}.end", what))?;
    if end > TOP as i64 {
        return bad(format!("{}.end {} is beyond double-{}", what, end, TOP));
    }
    let marker = if mexican {
        false
    } else {
        match v.get("marker") {
            Some(J::Bool(b)) => *b,
            _ => return bad(format!("{}.marker is not true or false", what)),
        }
    };
    let Some(J::Arr(items)) = v.get("tiles") else { return bad(format!("{}.tiles is not a list", what)) };
    let mut laid = Vec::new();
    for x in items {
        let J::Str(t) = x else { return bad(format!("{}.tiles holds a non-text", what)) };
        let Some((a, b)) = t.split_once('-') else { return bad(format!("{}: {:?} is not a tile", what, t)) };
        let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>()) else { return bad(format!("{}: {:?} is not a tile", what, t)) };
        if a > TOP || b > TOP {
            return bad(format!("{}: {} is not a tile of double-{}", what, t, TOP));
        }
        laid.push((a, b));
    }
    Ok(Train { tiles: laid, end: end as u8, marker })
}

fn read_table(v: Option<&J>) -> Result<Table, Fault> {
    let Some(st @ J::Obj(fields)) = v else { return bad("state is missing or not an object") };
    for (k, _) in fields {
        if !STATE_FIELDS.contains(&k.as_str()) {
            return bad(format!("state has an unknown field {:?}", k));
        }
    }
    for k in STATE_FIELDS {
        if st.get(k).is_none() {
            return bad(format!("state.{} is missing", k));
        }
    }
    let Some(J::Arr(hand_list)) = st.get("hands") else { return bad("state.hands is not a list") };
    let n = hand_list.len();
    if n == 0 || n > 20 {
        return bad(format!("state.hands lists {} seats", n));
    }
    if hand_size(n).is_none() {
        return Err(Fault::Refused(format!("drawbar deals to 2 to 8 players, not {}", n), "DEAL-7"));
    }
    let phase = match st.get("phase") {
        Some(J::Str(p)) if ["engine", "start", "chain", "follow", "over"].contains(&p.as_str()) => p.clone(),
        _ => return bad("state.phase is not a phase"),
    };
    if phase == "engine" || phase == "chain" || phase == "follow" {
        return Err(Fault::Unsupported(format!("the phase {:?} never comes up under drawbar's rules", phase)));
    }
    if !matches!(st.get("engine_placed"), Some(J::Bool(true))) {
        return Err(Fault::Unsupported("an engine to find never comes up: drawbar sets it aside".into()));
    }
    for k in ["open_doubles", "turn_doubles"] {
        match st.get(k) {
            Some(J::Arr(x)) if x.is_empty() => {}
            Some(J::Arr(_)) => return Err(Fault::Unsupported(format!("{}: doubles are ordinary tiles here", k))),
            _ => return bad(format!("state.{} is not a list", k)),
        }
    }
    let round = int(st.get("round"), "state.round")?;
    if round < 1 || round > ROUNDS {
        return Err(Fault::Refused(format!("drawbar's match has rounds 1 to {}, not {}", ROUNDS, round), "MATCH-1"));
    }
    let engine = int(st.get("engine"), "state.engine")?;
    if engine > TOP as i64 {
        return bad(format!("state.engine {} is beyond double-{}", engine, TOP));
    }
    let seat = int(st.get("seat"), "state.seat")? as usize;
    let starter = int(st.get("starter"), "state.starter")? as usize;
    if seat >= n || starter >= n {
        return bad("state.seat or state.starter is not a seat of the table");
    }
    let mut hands = Vec::new();
    for (i, h) in hand_list.iter().enumerate() {
        hands.push(tiles(Some(h), &format!("state.hands[{}]", i))?);
    }
    let boneyard = tiles(st.get("boneyard"), "state.boneyard")?;
    let Some(J::Arr(train_list)) = st.get("trains") else { return bad("state.trains is not a list") };
    if train_list.len() != n {
        return bad(format!("state.trains lists {} trains for {} seats", train_list.len(), n));
    }
    let mut trains = Vec::new();
    for (i, t) in train_list.iter().enumerate() {
        trains.push(train(t, &format!("state.trains[{}]", i), false)?);
    }
    let mexican = train(st.get("mexican").unwrap(), "state.mexican", true)?;
    let drawn = match st.get("drawn") {
        Some(J::Null) => None,
        Some(x) => Some(tile(x, "state.drawn")?),
        None => None,
    };
    let first_turns = match st.get("first_turns") {
        Some(J::Arr(items)) => {
            let mut out = Vec::new();
            for x in items {
                let k = int(Some(x), "state.first_turns")? as usize;
                if k >= n {
                    return bad("state.first_turns names a seat the table lacks");
                }
                out.push(k);
            }
            out
        }
        _ => return bad("state.first_turns is not a list"),
    };
    let passes = int(st.get("passes"), "state.passes")?;
    let scores = seats(st.get("scores"), "state.scores", n)?;
    let outs = seats(st.get("outs"), "state.outs", n)?;
    let result = match st.get("result") {
        Some(J::Null) => None,
        Some(r @ J::Obj(_)) => {
            let end = match r.get("end") {
                Some(J::Str(e)) if e == "domino" || e == "blocked" => e.clone(),
                _ => return bad("state.result.end is not domino or blocked"),
            };
            let winner = match r.get("winner") {
                Some(J::Null) => None,
                Some(w) => Some(int(Some(w), "state.result.winner")? as usize),
                None => return bad("state.result.winner is missing"),
            };
            let scores = seats(r.get("scores"), "state.result.scores", n)?;
            Some(Outcome { end, winner, scores })
        }
        _ => return bad("state.result is not an object or null"),
    };
    Ok(Table {
        round, engine: engine as u8, phase, seat, starter, hands, boneyard, trains, mexican, drawn, first_turns,
        passes, scores, outs, result,
    })
}

fn read_move(v: Option<&J>) -> Result<Move, Fault> {
    let Some(a @ J::Obj(fields)) = v else { return bad("action is missing or not an object") };
    let kind = match a.get("type") {
        Some(J::Str(k)) => k.clone(),
        _ => return bad("action.type is not a text"),
    };
    let allowed: &[&str] = if kind == "play" { &["type", "tile", "train"] } else { &["type"] };
    for (k, _) in fields {
        if !allowed.contains(&k.as_str()) {
            return bad(format!("a {} action has no field {:?}", kind, k));
        }
    }
    match kind.as_str() {
        "draw" => Ok(Move::Draw),
        "pass" => Ok(Move::Pass),
        "end-chain" => Ok(Move::EndChain),
        "play" => {
            let t = match a.get("tile") {
                Some(J::Str(t)) => Tile::read(t).ok_or_else(|| Fault::Bad(format!("action.tile {:?} is not a tile", t)))?,
                _ => return bad("action.tile is not a tile text"),
            };
            let w = match a.get("train") {
                Some(J::Str(m)) if m == "mexican" => Where::Mexican,
                Some(J::Num(k)) if *k >= 0 => Where::Seat(*k as usize), // TRAIN-1 checked in refuse
                _ => return bad("action.train is not a seat number or \"mexican\""),
            };
            Ok(Move::Play(t, w))
        }
        other => bad(format!("unknown action type {:?}", other)),
    }
}

// ---- the rules ------------------------------------------------------------------------

impl Table {
    fn n(&self) -> usize {
        self.hands.len()
    }

    fn train_at(&self, w: Where) -> &Train {
        match w {
            Where::Seat(k) => &self.trains[k],
            Where::Mexican => &self.mexican,
        }
    }

    // TRAIN-4: own train, the Mexican Train, or a train carrying its owner's marker
    fn open_to_mover(&self, w: Where, bugs: &Bugs) -> bool {
        match w {
            Where::Mexican => true,
            Where::Seat(k) => {
                k == self.seat || self.trains[k].marker || (bugs.empty_is_open && self.trains[k].tiles.is_empty())
            }
        }
    }

    fn plays(&self, bugs: &Bugs) -> Vec<(Tile, Where)> {
        let mut out = Vec::new();
        let mut places: Vec<Where> = (0..self.n()).map(Where::Seat).collect();
        places.push(Where::Mexican);
        // TURN-3: after a draw, the drawn tile alone
        let hand: Vec<Tile> = match self.drawn {
            Some(d) => vec![d],
            None => self.hands[self.seat].clone(),
        };
        for t in hand {
            for &w in &places {
                if self.open_to_mover(w, bugs) && t.fits(self.train_at(w).end) && !out.contains(&(t, w)) {
                    out.push((t, w));
                }
            }
        }
        out
    }

    fn legal(&self, bugs: &Bugs) -> Vec<Move> {
        if self.phase == "over" {
            return vec![]; // END-1
        }
        let mut out: Vec<Move> = self.plays(bugs).into_iter().map(|(t, w)| Move::Play(t, w)).collect();
        if !out.is_empty() {
            if bugs.dry_pass && self.boneyard.is_empty() {
                out.push(Move::Pass); // bug 1: breaks TURN-1
            }
            return out; // TURN-1: a play is due
        }
        if self.boneyard.is_empty() {
            return vec![Move::Pass]; // TURN-4: nothing to draw
        }
        match self.drawn {
            Some(d) if bugs.double_redraw && d.double() => vec![Move::Draw], // bug 3: breaks TURN-4
            Some(_) => vec![Move::Pass], // TURN-4: the drawn tile does not fit
            None => vec![Move::Draw],    // TURN-2: draw one
        }
    }

    fn refuse(&self, m: Move, bugs: &Bugs) -> Option<(String, &'static str)> {
        if self.phase == "over" {
            return Some(("the round is over".into(), "END-1"));
        }
        if let Move::Play(_, Where::Seat(k)) = m {
            if k >= self.n() {
                return Some((format!("there is no train {} at a table of {}", k, self.n()), "TRAIN-1"));
            }
        }
        let legal = self.legal(bugs);
        if legal.contains(&m) {
            return None;
        }
        let has_play = legal.iter().any(|x| matches!(x, Move::Play(..)));
        match m {
            Move::EndChain => Some(("every turn is one tile here: there is no chain to end".into(), "FIRST-7")),
            Move::Draw | Move::Pass if has_play => Some(("a tile can be played: play it".into(), "TURN-1")),
            Move::Draw if self.boneyard.is_empty() => Some(("the boneyard is empty".into(), "TURN-4")),
            Move::Draw => Some(("one draw a turn".into(), "TURN-2")),
            Move::Pass => Some(("draw first".into(), "TURN-2")),
            Move::Play(t, w) => {
                if !t.in_set() {
                    return Some((format!("{} is not a tile of double-{}", t.name(), TOP), "SET-1"));
                }
                if !self.hands[self.seat].contains(&t) {
                    return Some((format!("seat {} does not hold {}", self.seat, t.name()), "TURN-7"));
                }
                if !t.fits(self.train_at(w).end) {
                    return Some((format!("{} does not match the end {}", t.name(), self.train_at(w).end), "TRAIN-2"));
                }
                if let Some(d) = self.drawn {
                    if d != t {
                        return Some((format!("only the drawn {} may be played", d.name()), "TURN-3"));
                    }
                }
                Some(("that train is closed to this player".into(), "TRAIN-4"))
            }
        }
    }

    fn hand_cost(&self, k: usize) -> i64 {
        self.hands[k].iter().map(|t| t.cost()).sum()
    }

    // "heavy doubles": whoever went out pays nothing, everybody else their hand
    fn round_scores(&self, winner: Option<usize>) -> Vec<i64> {
        (0..self.n()).map(|k| if Some(k) == winner { 0 } else { self.hand_cost(k) }).collect()
    }

    fn finish(&mut self, winner: Option<usize>) {
        let scores = self.round_scores(winner);
        for k in 0..self.n() {
            self.scores[k] += scores[k]; // MATCH-1: totals carry the round
        }
        if let Some(w) = winner {
            self.outs[w] += 1;
        }
        self.result = Some(Outcome { end: if winner.is_some() { "domino" } else { "blocked" }.into(), winner, scores });
        self.phase = "over".into();
        self.drawn = None;
    }

    fn end_turn(&mut self) {
        self.drawn = None;
        let seat = self.seat;
        self.first_turns.retain(|&k| k != seat);
        self.seat = (seat + 1) % self.n();
        self.phase = "start".into();
    }

    fn perform(&mut self, m: Move) {
        match m {
            Move::Play(t, w) => {
                let seat = self.seat;
                let at = self.hands[seat].iter().position(|&x| x == t).unwrap();
                self.hands[seat].remove(at);
                let train = match w {
                    Where::Seat(k) => &mut self.trains[k],
                    Where::Mexican => &mut self.mexican,
                };
                let far = t.other(train.end);
                train.tiles.push((train.end, far));
                train.end = far;
                if w == Where::Seat(seat) {
                    train.marker = false; // MARK-3
                }
                self.passes = 0;
                if self.hands[seat].is_empty() {
                    self.finish(Some(seat)); // END-1: out
                } else {
                    self.end_turn(); // DBL-11: an ordinary double ends the turn too
                }
            }
            Move::Draw => {
                let t = self.boneyard.remove(0);
                self.hands[self.seat].push(t);
                self.drawn = Some(t);
            }
            Move::Pass => {
                self.trains[self.seat].marker = true; // TURN-4, MARK-1
                let dry = self.boneyard.is_empty();
                if dry {
                    self.passes += 1;
                }
                self.end_turn();
                if dry {
                    self.finish(None); // "dry yard": the first pass on an empty boneyard
                }
            }
            Move::EndChain => {}
        }
    }

    fn winners(&self) -> Vec<usize> {
        if self.phase != "over" || self.round < ROUNDS {
            return vec![]; // MATCH-1: the match goes on
        }
        let low = *self.scores.iter().min().unwrap();
        let tied: Vec<usize> = (0..self.n()).filter(|&k| self.scores[k] == low).collect();
        // "last round decides": the least paid in the last round among equal totals
        let Some(r) = &self.result else { return tied };
        let least = tied.iter().map(|&k| r.scores[k]).min().unwrap();
        tied.into_iter().filter(|&k| r.scores[k] == least).collect()
    }

    fn to_json(&self) -> J {
        let tl = |v: &Vec<Tile>| J::Arr(v.iter().map(|t| s(&t.name())).collect());
        let train = |t: &Train, mexican: bool| {
            let mut f = vec![
                ("tiles", J::Arr(t.tiles.iter().map(|(a, b)| s(&format!("{}-{}", a, b))).collect())),
                ("end", J::Num(t.end as i64)),
            ];
            if !mexican {
                f.push(("marker", J::Bool(t.marker)));
            }
            obj(f)
        };
        let nums = |v: &Vec<i64>| J::Arr(v.iter().map(|&x| J::Num(x)).collect());
        obj(vec![
            ("round", J::Num(self.round)),
            ("engine", J::Num(self.engine as i64)),
            ("engine_placed", J::Bool(true)),
            ("phase", s(&self.phase)),
            ("seat", J::Num(self.seat as i64)),
            ("starter", J::Num(self.starter as i64)),
            ("hands", J::Arr(self.hands.iter().map(tl).collect())),
            ("boneyard", tl(&self.boneyard)),
            ("trains", J::Arr(self.trains.iter().map(|t| train(t, false)).collect())),
            ("mexican", train(&self.mexican, true)),
            ("open_doubles", J::Arr(vec![])),
            ("turn_doubles", J::Arr(vec![])),
            ("drawn", self.drawn.map(|t| s(&t.name())).unwrap_or(J::Null)),
            ("first_turns", J::Arr(self.first_turns.iter().map(|&k| J::Num(k as i64)).collect())),
            ("passes", J::Num(self.passes)),
            ("scores", nums(&self.scores)),
            ("outs", nums(&self.outs)),
            (
                "result",
                match &self.result {
                    None => J::Null,
                    Some(r) => obj(vec![
                        ("end", s(&r.end)),
                        ("winner", r.winner.map(|w| J::Num(w as i64)).unwrap_or(J::Null)),
                        ("scores", nums(&r.scores)),
                    ]),
                },
            ),
        ])
    }
}

fn move_json(m: Move) -> J {
    match m {
        Move::Play(t, w) => obj(vec![
            ("type", s("play")),
            ("tile", s(&t.name())),
            ("train", match w {
                Where::Seat(k) => J::Num(k as i64),
                Where::Mexican => s("mexican"),
            }),
        ]),
        Move::Draw => obj(vec![("type", s("draw"))]),
        Move::Pass => obj(vec![("type", s("pass"))]),
        Move::EndChain => obj(vec![("type", s("end-chain"))]),
    }
}

// ---- requests ---------------------------------------------------------------------------

fn deal(req: &J) -> Result<J, Fault> {
    let players = int(req.get("players"), "players")? as usize;
    let Some(size) = hand_size(players) else {
        return Err(Fault::Refused(format!("drawbar has no hand size for {} players (2 to 8)", players), "DEAL-7"));
    };
    let round = int(req.get("round"), "round")?;
    if round < 1 || round > ROUNDS {
        return Err(Fault::Refused(format!("drawbar's match has rounds 1 to {}, not {}", ROUNDS, round), "MATCH-1"));
    }
    let engine = (ROUNDS - round) as u8;
    let order = tiles(req.get("order"), "order")?;
    // the pool: the whole set but the engine, each tile once
    let mut seen = vec![false; (TOP as usize + 1) * (TOP as usize + 1)];
    for t in &order {
        let k = t.0 as usize * (TOP as usize + 1) + t.1 as usize;
        if seen[k] || (t.double() && t.0 == engine) {
            return bad(format!("order: {} is the engine or given twice", t.name()));
        }
        seen[k] = true;
    }
    let whole = (TOP as usize + 1) * (TOP as usize + 2) / 2;
    if order.len() != whole - 1 {
        return bad(format!("order holds {} tiles, not the {} of double-{} without the engine", order.len(), whole - 1, TOP));
    }
    let hands: Vec<Vec<Tile>> = (0..players).map(|k| order[k * size..(k + 1) * size].to_vec()).collect();
    let boneyard = order[players * size..].to_vec();
    let start = ((round - 1) as usize) % players; // SEAT-3
    let empty = Train { tiles: vec![], end: engine, marker: false };
    let table = Table {
        round, engine, phase: "start".into(), seat: start, starter: start, hands, boneyard,
        trains: vec![empty.clone(); players], mexican: empty, drawn: None, first_turns: (0..players).collect(),
        passes: 0, scores: vec![0; players], outs: vec![0; players], result: None,
    };
    Ok(table.to_json())
}

fn hello() -> Vec<(&'static str, J)> {
    let opts = [
        ("tile_set", "double-17"), ("hand_sizes", "custom"), ("engine_procedure", "set-aside"),
        ("starting_seat", "rotate"), ("first_turn", "single"), ("mexican_first_turn", "anyone"),
        ("own_train_first", "not-required"), ("doubles", "ordinary"), ("follow_up", "anywhere"),
        ("double_order", "oldest-first"), ("uncoverable_double", "stays-open"),
        ("marker_removal", "owner-plays-own"), ("draw_rule", "draw-one"), ("blocked_round", "other"),
        ("scoring", "other"), ("blank_values", "face"), ("tie_rule", "other"), ("match_length", "full"),
    ];
    let sizes = J::Obj(HANDS.iter().map(|(n, h)| (n.to_string(), J::Num(*h as i64))).collect());
    vec![
        ("protocol", J::Num(1)),
        ("name", s("drawbar")),
        ("version", s("0.3.1")),
        ("rules", obj(vec![
            ("name", s("drawbar")),
            ("options", J::Obj(opts.iter().map(|(k, v)| (k.to_string(), s(v))).collect())),
            ("hand_sizes", sizes),
        ])),
    ]
}

fn handle(req: &J, bugs: &Bugs) -> Result<Vec<(&'static str, J)>, Fault> {
    let kind = match req.get("type") {
        Some(J::Str(k)) => k.as_str(),
        _ => return bad("type is missing"),
    };
    match kind {
        "hello" => match req.get("protocol") {
            Some(J::Num(1)) => Ok(hello()),
            _ => Err(Fault::Bad("protocol-version".into())),
        },
        "shutdown" => Ok(vec![]),
        "deal" => Ok(vec![("state", deal(req)?)]),
        "legal" => {
            let t = read_table(req.get("state"))?;
            Ok(vec![("actions", J::Arr(t.legal(bugs).into_iter().map(move_json).collect()))])
        }
        "apply" => {
            let mut t = read_table(req.get("state"))?;
            let m = read_move(req.get("action"))?;
            if let Move::Play(x, _) = m {
                if !x.in_set() {
                    return Ok(vec![("refused", obj(vec![("reason", s(&format!("{} is not of double-{}", x.name(), TOP))), ("clause", s("SET-1"))]))]);
                }
            }
            match t.refuse(m, bugs) {
                Some((why, clause)) => Ok(vec![("refused", obj(vec![("reason", s(&why)), ("clause", s(clause))]))]),
                None => {
                    t.perform(m);
                    Ok(vec![("state", t.to_json())])
                }
            }
        }
        "score" => {
            let t = read_table(req.get("state"))?;
            let winner = match req.get("winner") {
                None => match &t.result {
                    Some(r) => r.winner,
                    None => return bad("score: the round is not over and no winner is named"),
                },
                Some(J::Null) => None,
                Some(w) => {
                    let k = int(Some(w), "winner")? as usize;
                    if k >= t.n() || !t.hands[k].is_empty() {
                        return bad("score: the winner named still holds tiles");
                    }
                    Some(k)
                }
            };
            Ok(vec![("scores", J::Arr(t.round_scores(winner).into_iter().map(J::Num).collect()))])
        }
        "winners" => {
            let t = read_table(req.get("state"))?;
            Ok(vec![("winners", J::Arr(t.winners().into_iter().map(|k| J::Num(k as i64)).collect()))])
        }
        other => bad(format!("unknown request type {:?}", other)),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let on = args.iter().any(|a| a == "--bugs") && !args.iter().any(|a| a == "--fixed");
    let bugs = Bugs { dry_pass: on, empty_is_open: on, double_redraw: on };
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let text = line.trim_start_matches('\u{feff}').trim_end_matches('\r');
        if text.trim().is_empty() {
            continue;
        }
        let (id, answer, stop) = match parse(text) {
            Err(e) => (J::Null, Err(Fault::Bad(format!("not JSON: {}", e))), false),
            Ok(req) => {
                let id = req.get("id").cloned().unwrap_or(J::Null);
                let stop = matches!(req.get("type"), Some(J::Str(k)) if k == "shutdown");
                (id, handle(&req, &bugs), stop)
            }
        };
        let mut fields = vec![("id", id)];
        match answer {
            Ok(f) => {
                fields.push(("ok", J::Bool(true)));
                fields.extend(f);
            }
            Err(fault) => {
                fields.push(("ok", J::Bool(false)));
                let err = match fault {
                    Fault::Bad(m) if m == "protocol-version" => obj(vec![
                        ("kind", s("protocol-version")),
                        ("message", s("drawbar speaks protocol 1")),
                        ("supported", J::Arr(vec![J::Num(1)])),
                    ]),
                    Fault::Bad(m) => obj(vec![("kind", s("bad-request")), ("message", s(&m))]),
                    Fault::Unsupported(m) => obj(vec![("kind", s("unsupported")), ("message", s(&m))]),
                    Fault::Refused(m, c) => obj(vec![("kind", s("refused-setup")), ("message", s(&m)), ("clause", s(c))]),
                };
                fields.push(("error", err));
            }
        }
        let mut text = String::new();
        write(&obj(fields), &mut text);
        text.push('\n');
        if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
            break;
        }
        if stop {
            break;
        }
    }
}
