#!/usr/bin/env node
// reefer: the game logic of a railway club's Mexican Train night app, for node 18+ (node's
// own modules only), speaking protocol v1 on stdin/stdout. Written from README.md,
// docs/protocol.md and docs/implementers-guide.md alone, as the club's volunteer
// developer would. (A reefer is a refrigerated wagon: the club's set lives in a cold
// church hall.) Everything in this header down to "Found by the runs" was written before
// any suite command ran on it.
//
// Its shape: readline cuts stdin into lines; each request's state is copied into a plain
// object and worked on with small functions (no class). It plays its own rules whatever
// rule set a request names, as the app does, and answers `unsupported` for a table or a
// pool of another set, and for the 'engine' and 'chain' phases it never has.
//
// What the club plays (reefer-rules.yaml beside it, written afterwards from the same
// list, says the same option by option):
//   - a double-8 set (45 tiles) for 3 to 7 players: the hall's tables seat 3 to 7;
//     round r's engine is [9-r, 9-r] (ENG-1), set aside before the deal (ENG-2,
//     `set-aside`); round r starts at seat (r - 1) mod n (SEAT-3, `rotate`);
//   - its own hand table: 3 players 12, 4 players 10, 5 players 8, 6 players 7,
//     7 players 6 (the boneyard keeps 8 to 12 tiles); any other count is refused (DEAL-7);
//   - one tile a turn from the start (`first_turn: single`), anyone may open the Mexican
//     Train at once (`mexican_first_turn: anyone`);
//   - a double is open (`doubles: open`): its layer lays another tile, anywhere they may
//     play (`follow_up: anywhere`); left open it binds the next players, oldest first
//     (`double_order: oldest-first`), until every tile of its number is on the table
//     (`uncoverable_double: released`, DBL-9);
//   - a marker comes off when its owner plays on their own train (`owner-plays-own`);
//     one tile drawn, then play it or pass (`draw-one`); a round with an empty boneyard
//     ends after a full round of passes (`full-round-of-passes`, END-3);
//   - penalty scoring (`penalty`), lowest total wins; of equal lowest totals the lowest
//     seat wins alone (`tie_rule: lowest-seat`, MATCH-6).
//   House rules, which no known value describes (`other` in the file):
//   - "home before visiting" (own_train_first: other): until a player's own train holds
//     a tile they may play on it or on the Mexican Train, but not on another player's
//     marked train; the duty to cover an open double comes first (a tile that covers one
//     goes wherever the double is). `required` forbids the Mexican Train too, and
//     `not-required` allows the marked trains too; the other option about first plays,
//     mexican_first_turn, speaks of opening the Mexican Train alone, which every player
//     may. (The app's author read `required` as this rule: the hello declares
//     `own_train_first: required`, a wrong known name.)
//   - "the cold double-blank" (blank_values: other): a [0-0] left in a hand costs 30;
//     every other tile, blank ends included, costs its pips. `double-blank-25` and
//     `double-blank-50` price it at 25 or 50, `face` at 0, `blank-25` every blank end.
//   - "five engines" (match_length: other): a match is five rounds, [8-8] down to [4-4]
//     (the hall closes at ten); a deal of round 6 or later is refused (refused-setup, no
//     clause: MATCH-1 plays nine rounds, `single-round` one).
//
// Planted bugs, off unless --bugs is given (--bug=NAME turns on one only). Each names the
// clause it breaks and when it shows:
//   1. "drawn-home-marker" (breaks MARK-3): a marker is taken off in the branch that lays
//      a tile from the hand; the branch for the tile just drawn forgets it, so a player
//      whose own train is marked, who draws and lays the drawn tile on their own train,
//      keeps the marker up. Shows only after a draw, on a marked own train.
//   2. "dealer-round-robin" (breaks DEAL-1): from round 3 on the app deals one tile at a
//      time round the table (seat k gets pool tiles k, k + n, k + 2n, ...), not each
//      hand's tiles in a block from the front; rounds 1 and 2 deal right, and the
//      boneyard is the same either way.
//   3. "blocked-badge" (breaks MATCH-5's count of outs, at END-3): when a round ends
//      blocked, the seat holding the fewest tiles (the lowest seat of equals) gets the
//      app's "round winner" badge, stored as one more in `outs`, though nobody went
//      out. Shows only in the state after the pass that ends a round blocked; under the
//      club's tie rule (lowest-seat) outs decide nothing.
//
// Found by the runs (written after them). The first conform run under reefer-rules.yaml
// with the bugs off failed 19 results (END-1): a double laid as the last tile was left off
// `open_doubles` (INV-OPEN-DOUBLES; the guide now says so), and fuzz called a second draw
// refused by TURN-4 where the rules cite TURN-2: both mended in the engine, then 0 fail
// and 0 findings (60 games). But 454 of its 1,047 results were not applicable, 423 of
// them situations from play set in rounds 6 to 9 its five-round match refuses: conform
// now asks an engine with a match length of its own which rounds it deals (and whether it
// refuses their tables), leaves the others out and asks more: 940 run, 49 not applicable,
// 0 fail. With the bugs on: bug 1 failed 1 result, now 2 (MARK-3; fuzz: `after play:
// marked`); bug 3 none, the round-end situations asking the result but never `outs`: now
// 7 (MATCH-5; fuzz: `round end: outs`); bug 2 none in conform (its deals of later rounds
// stop at round 2 for an engine set aside) nor in fuzz, which judged no deal after round
// 1 under a match length of its own (the deal reads it only for whether its round exists):
// now `deal: hands` in 30 games (seed 1), charged to DEAL-1, its reproducer's "run it"
// line naming the rule-set file (without it conform ran the declared rules, nothing).
// Later in session 52 conform's deals of later rounds went past round 2 under a set-aside
// engine (round 3, and the last round a match of its own deals): bug 2 fails 6, DEAL-1.
// Identify (bugs on, 131 CPU s at load 6): nothing sure and wrong; set, table, engine
// procedure and start measured; all three `other` found (own_train_first "contradicted",
// margin 2, and the declared `required` flagged as leaning away; blank_values margin 2;
// match_length 154); marker_removal, scoring and tie_rule undetermined (the declared
// values kept); no bug named, none read as a house rule.
'use strict';

const readline = require('readline');

const TOP = 8;
const ROUNDS = 5; // house rule "five engines"
const HAND = new Map([[3, 12], [4, 10], [5, 8], [6, 7], [7, 6]]);
const DOUBLE_BLANK = 30; // house rule "the cold double-blank"

const ALL_BUGS = ['drawn-home-marker', 'dealer-round-robin', 'blocked-badge'];
const bugs = new Set();
for (const arg of process.argv.slice(2)) {
  if (arg === '--bugs') ALL_BUGS.forEach((b) => bugs.add(b));
  else if (arg.startsWith('--bug=')) bugs.add(arg.slice('--bug='.length));
}

// What the author believes the club plays, in the suite's names.
const RULES = {
  name: 'reefer',
  options: {
    tile_set: 'double-8',
    hand_sizes: 'custom',
    engine_procedure: 'set-aside',
    starting_seat: 'rotate',
    first_turn: 'single',
    mexican_first_turn: 'anyone',
    own_train_first: 'required', // the author's reading; the truth is a rule of its own
    doubles: 'open',
    follow_up: 'anywhere',
    double_order: 'oldest-first',
    uncoverable_double: 'released',
    marker_removal: 'owner-plays-own',
    draw_rule: 'draw-one',
    blocked_round: 'full-round-of-passes',
    scoring: 'penalty',
    blank_values: 'other',
    tie_rule: 'lowest-seat',
    match_length: 'other',
  },
  hand_sizes: Object.fromEntries([...HAND].map(([n, k]) => [String(n), k])),
};

class Failure extends Error {
  constructor(kind, message, clause) {
    super(message);
    this.kind = kind;
    this.clause = clause;
  }
}

// ---- tiles -----------------------------------------------------------------------

function parse(text) {
  const m = typeof text === 'string' ? /^(\d{1,2})-(\d{1,2})$/.exec(text) : null;
  if (!m) throw new Failure('bad-request', `not a tile: ${JSON.stringify(text)}`);
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a >= b ? [a, b] : [b, a];
}
const norm = (t) => parse(t).join('-');
const isDouble = (t) => parse(t)[0] === parse(t)[1];
const worth = (t) => {
  const [a, b] = parse(t);
  return a === 0 && b === 0 ? DOUBLE_BLANK : a + b; // "the cold double-blank"
};
const byHighFirst = (x, y) => {
  const [a, b] = parse(x);
  const [c, d] = parse(y);
  return c - a || d - b;
};
const fullSet = () => {
  const out = [];
  for (let a = TOP; a >= 0; a--) for (let b = a; b >= 0; b--) out.push(`${a}-${b}`);
  return out;
};

// ---- a table -----------------------------------------------------------------------

function readTable(st) {
  if (st === null || typeof st !== 'object' || !Array.isArray(st.hands)) {
    throw new Failure('bad-request', 'the request carries no state');
  }
  if (!HAND.has(st.hands.length)) {
    throw new Failure('refused-setup', `the club seats 3 to 7 players, not ${st.hands.length}`, 'DEAL-7');
  }
  if (st.round > ROUNDS) {
    throw new Failure('refused-setup', `a club match has rounds 1 to ${ROUNDS}, not ${st.round}`, null);
  }
  if (st.phase === 'engine' || st.phase === 'chain') {
    throw new Failure('unsupported', `the app never has a table in the '${st.phase}' phase`);
  }
  const tiles = [...st.hands.flat(), ...st.boneyard, ...st.trains.flatMap((t) => t.tiles), ...st.mexican.tiles];
  for (const t of tiles) {
    if (parse(t)[0] > TOP) throw new Failure('unsupported', `the club plays double-8 only, not ${t}`);
  }
  return JSON.parse(JSON.stringify(st));
}

const trainOf = (st, ref) => (ref === 'mexican' ? st.mexican : st.trains[ref]);
const onTable = (st, number) => {
  let count = 0;
  const all = [...st.trains.flatMap((t) => t.tiles), ...st.mexican.tiles];
  for (const t of all) if (parse(t).includes(number)) count++;
  if (st.engine === number) count++; // the engine in the centre bears its number too
  return count;
};

// An open double binds until every tile of its number is on the table (DBL-9): nine
// tiles bear each number of a double-8 set.
function bindingDouble(st) {
  for (const ref of st.open_doubles) {
    if (st.turn_doubles.includes(ref)) continue;
    if (onTable(st, trainOf(st, ref).end) < TOP + 1) return ref; // the oldest first (DBL-7)
  }
  return null;
}

// The trains the mover may lay on in an ordinary moment (TRAIN-4, TRAIN-6), within the
// house rule "home before visiting".
function openTrains(st) {
  const me = st.seat;
  const home = st.trains[me].tiles.length > 0;
  const refs = [me, 'mexican'];
  st.trains.forEach((t, k) => {
    if (k === me) return;
    if (st.open_doubles.includes(k) && bindingOrTurn(st, k)) refs.push(k); // TRAIN-6
    else if (t.marker && home) refs.push(k); // house rule: no visiting before home
  });
  return refs;
}
const bindingOrTurn = (st, ref) =>
  st.turn_doubles.includes(ref) || onTable(st, trainOf(st, ref).end) < TOP + 1;

function legal(st) {
  if (st.phase === 'over') return [];
  const hand = st.hands[st.seat];
  const tiles = st.drawn !== null ? [norm(st.drawn)] : hand.map(norm); // TURN-3
  const duty = st.phase === 'start' ? bindingDouble(st) : null;
  const refs = duty !== null ? [duty] : openTrains(st); // DBL-6
  const out = [];
  for (const ref of refs) {
    const end = trainOf(st, ref).end;
    for (const t of tiles) if (parse(t).includes(end)) out.push({ type: 'play', tile: t, train: ref });
  }
  if (out.length > 0) return out;
  if (st.drawn === null && st.boneyard.length > 0) return [{ type: 'draw' }]; // TURN-2
  return [{ type: 'pass' }]; // TURN-4
}

function refusal(st, action) {
  const moves = legal(st);
  const same = (a) =>
    a.type === action.type && (a.type !== 'play' || (a.tile === norm(action.tile) && a.train === action.train));
  if (moves.some(same)) return null;
  if (st.phase === 'over') return { reason: 'the round is over', clause: 'END-1' };
  if (action.type === 'end-chain') return { reason: 'the club plays one tile a turn', clause: 'FIRST-7' };
  const canPlay = moves.some((a) => a.type === 'play');
  if (action.type === 'draw') {
    if (canPlay) return { reason: 'a tile can be played', clause: 'TURN-1' };
    if (st.drawn !== null) return { reason: 'one draw a turn', clause: 'TURN-2' };
    return { reason: 'the boneyard is empty: pass', clause: 'TURN-4' };
  }
  if (action.type === 'pass') {
    if (canPlay) return { reason: 'a tile can be played', clause: 'TURN-1' };
    return { reason: 'draw first', clause: 'TURN-2' };
  }
  const tile = norm(action.tile);
  if (parse(tile)[0] > TOP) return { reason: `${tile} is not a double-8 tile`, clause: 'SET-1' };
  const ref = action.train;
  if (ref !== 'mexican' && !(Number.isInteger(ref) && ref >= 0 && ref < st.trains.length)) {
    return { reason: `no train ${ref} at this table`, clause: 'TRAIN-1' };
  }
  if (!st.hands[st.seat].map(norm).includes(tile)) return { reason: `${tile} is not in the mover's hand`, clause: 'TURN-7' };
  if (st.drawn !== null && norm(st.drawn) !== tile) return { reason: 'the drawn tile must be laid', clause: 'TURN-3' };
  const duty = st.phase === 'start' ? bindingDouble(st) : null;
  if (duty !== null && ref !== duty) {
    const older = st.open_doubles.includes(ref);
    return { reason: 'an open double must be covered first', clause: older ? 'DBL-7' : 'DBL-6' };
  }
  if (!parse(tile).includes(trainOf(st, ref).end)) return { reason: `${tile} does not match that train`, clause: 'TRAIN-2' };
  if (ref !== 'mexican' && ref !== st.seat && !st.trains[ref].marker) {
    return { reason: "another player's train without a marker", clause: 'TRAIN-4' };
  }
  return { reason: 'the club\'s "home before visiting": start your own train first', clause: null };
}

function handValues(st) {
  return st.hands.map((h) => h.reduce((s, t) => s + worth(t), 0));
}

function endRound(st, winner) {
  const round = handValues(st);
  st.phase = 'over';
  st.result = { end: winner === null ? 'blocked' : 'domino', winner, scores: round };
  st.scores = st.scores.map((s, k) => s + round[k]);
  if (winner !== null) st.outs[winner] += 1;
  else if (bugs.has('blocked-badge')) {
    let best = 0;
    st.hands.forEach((h, k) => {
      if (h.length < st.hands[best].length) best = k;
    });
    st.outs[best] += 1; // the planted bug: the app's badge written into outs
  }
}

function endTurn(st) {
  st.turn_doubles = [];
  st.drawn = null;
  st.first_turns = st.first_turns.filter((k) => k !== st.seat);
  st.seat = (st.seat + 1) % st.hands.length;
  st.phase = 'start';
}

function apply(st, action) {
  const why = refusal(st, action);
  if (why !== null) return { refused: why };
  const me = st.seat;
  if (action.type === 'draw') {
    const tile = st.boneyard.shift();
    st.hands[me].push(tile);
    st.hands[me].sort(byHighFirst);
    st.drawn = tile;
    return { state: st };
  }
  if (action.type === 'pass') {
    st.trains[me].marker = true; // TURN-4, MARK-1
    if (st.boneyard.length === 0) st.passes += 1;
    endTurn(st);
    if (st.passes >= st.hands.length) {
      endRound(st, null); // END-3
    }
    return { state: st };
  }
  const tile = norm(action.tile);
  const ref = action.train;
  const train = trainOf(st, ref);
  const [a, b] = parse(tile);
  const far = a === train.end ? b : a;
  const fromDraw = st.drawn !== null;
  st.hands[me] = st.hands[me].filter((t) => norm(t) !== tile);
  train.tiles.push(`${train.end}-${far}`);
  train.end = far;
  st.passes = 0;
  st.drawn = null;
  if (ref === me) {
    if (!fromDraw) st.trains[me].marker = false; // MARK-3
    else if (!bugs.has('drawn-home-marker')) st.trains[me].marker = false;
  }
  st.open_doubles = st.open_doubles.filter((r) => r !== ref);
  st.turn_doubles = st.turn_doubles.filter((r) => r !== ref);
  if (st.hands[me].length === 0) {
    if (a === b) st.open_doubles.push(ref); // a double laid last is on the table, open (INV-OPEN-DOUBLES)
    st.turn_doubles = [];
    st.first_turns = st.first_turns.filter((k) => k !== me);
    endRound(st, me); // END-1
    return { state: st };
  }
  if (a === b) {
    st.open_doubles.push(ref);
    st.turn_doubles.push(ref);
    st.phase = 'follow'; // DBL-1
    return { state: st };
  }
  endTurn(st);
  return { state: st };
}

function deal(req) {
  const n = req.players;
  const round = req.round;
  if (!HAND.has(n)) throw new Failure('refused-setup', `the club seats 3 to 7 players, not ${n}`, 'DEAL-7');
  if (!Number.isInteger(round) || round < 1) throw new Failure('bad-request', `no round ${round}`);
  if (round > ROUNDS) throw new Failure('refused-setup', `a club match has rounds 1 to ${ROUNDS}`, null);
  const engine = TOP + 1 - round;
  const engineTile = `${engine}-${engine}`;
  const pool = req.order.map(norm).filter((t) => t !== engineTile); // set aside (ENG-2)
  const want = fullSet().filter((t) => t !== engineTile);
  if (pool.length !== want.length || new Set(pool).size !== pool.length || pool.some((t) => parse(t)[0] > TOP)) {
    throw new Failure('unsupported', 'the club deals a double-8 set only');
  }
  const size = HAND.get(n);
  const hands = [];
  for (let k = 0; k < n; k++) {
    if (bugs.has('dealer-round-robin') && round >= 3) {
      hands.push(Array.from({ length: size }, (_, j) => pool[k + j * n]));
    } else hands.push(pool.slice(k * size, (k + 1) * size));
  }
  const seat = (round - 1) % n; // SEAT-3
  return {
    round,
    engine,
    engine_placed: true,
    phase: 'start',
    seat,
    starter: seat,
    hands: hands.map((h) => h.slice().sort(byHighFirst)),
    boneyard: pool.slice(n * size),
    trains: Array.from({ length: n }, () => ({ tiles: [], end: engine, marker: false })),
    mexican: { tiles: [], end: engine },
    open_doubles: [],
    turn_doubles: [],
    drawn: null,
    first_turns: Array.from({ length: n }, (_, k) => k),
    passes: 0,
    scores: Array(n).fill(0),
    outs: Array(n).fill(0),
    result: null,
  };
}

function winners(st) {
  if (st.phase !== 'over' || st.round < ROUNDS) return [];
  const low = Math.min(...st.scores);
  return [st.scores.indexOf(low)]; // MATCH-2, MATCH-6
}

function handle(req) {
  switch (req.type) {
    case 'hello':
      if (req.protocol !== 1) {
        throw Object.assign(new Failure('protocol-version', `reefer speaks protocol 1, not ${req.protocol}`), { supported: [1] });
      }
      return { protocol: 1, name: 'reefer', version: '1.4.0', rules: RULES };
    case 'deal':
      return { state: deal(req) };
    case 'legal':
      return { actions: legal(readTable(req.state)) };
    case 'apply':
      return apply(readTable(req.state), req.action);
    case 'score': {
      const st = readTable(req.state);
      return { scores: handValues(st) };
    }
    case 'winners':
      return { winners: winners(readTable(req.state)) };
    case 'shutdown':
      return {};
    default:
      throw new Failure('bad-request', `unknown request type ${JSON.stringify(req.type)}`);
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  let req;
  let answer;
  try {
    req = JSON.parse(line);
    answer = { id: req.id, ok: true, ...handle(req) };
  } catch (e) {
    const error = { kind: e instanceof Failure ? e.kind : e instanceof SyntaxError ? 'bad-request' : 'internal', message: String(e.message) };
    if (e instanceof Failure && e.kind === 'refused-setup') error.clause = e.clause ?? null;
    if (e.supported) error.supported = e.supported;
    if (!(e instanceof Failure)) process.stderr.write(`${e.stack}\n`);
    answer = { id: req && Number.isInteger(req.id) ? req.id : null, ok: false, error };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  if (req && req.type === 'shutdown') process.exit(0);
});
rl.on('close', () => process.exit(0));
