#!/usr/bin/env node
// gondola: a Mexican Train engine for node (no packages), written from
// docs/protocol.md, docs/implementers-guide.md and the rule pages of docs/rules/ alone,
// as an outside author would; it speaks protocol v1 on stdin/stdout.
//
// What it plays (gondola-rules.yaml beside it says the same, option by option):
//   - a double-15 set; round r's engine is [16-r, 16-r] (ENG-1), set aside before the
//     deal (ENG-2); sixteen rounds, down to [0-0];
//   - its own hand sizes, 2 to 10 players: 2 take 17, 3 take 16, 4 take 15, 5 take 13,
//     6 take 12, 7 take 11, 8 take 10, 9 take 9, 10 take 8 (any other count is
//     refused, DEAL-7);
//   - one tile a turn from the start; anyone may open the Mexican Train at once (FIRST-8);
//   - open doubles: a double asks for a follow-up tile; one left open binds the next
//     players until covered (DBL-6), and one nobody can cover stays open (DBL-10);
//   - draw one tile when you cannot play (TURN-2); a marker comes off when its owner
//     plays on their train (MARK-3); the round ends blocked after a full round of passes
//     on an empty boneyard (END-3); penalty scoring with blanks worth 0, lowest total
//     wins, ties shared.
//   House rules, none of which a known value describes (the file says `other`):
//   - "engine-count start" (starting_seat: other): the round is begun by the seat the
//     engine's pips count to, going round the table from seat 0: seat (2 * e) mod n for
//     the engine [e-e] (the [15-15] of round 1 at 4 players: 30 mod 4, seat 2). Every
//     round thus has a start the table can check from the deal alone.
//   - "home or cover" (follow_up: other): the tile after a double goes on a double laid
//     this turn (covering it) or on the player's own train, nowhere else; a double left
//     uncovered so binds the next player (DBL-6).
//   - "mind your own" (double_order: other): with several open doubles, the player to
//     move covers the one on their own train first, if there is one; else the oldest.
//
// It ignores the rule set each request carries: it plays its own rules, as an app does.
//
// Planted bugs, all on unless --fixed is given (--bug=NAME alone turns on one only).
// Each names the clause it breaks (written before any suite command ran on it):
//   1. "first-mexican" (breaks FIRST-8): a player on their first turn of the round may
//      not open the Mexican Train (while it is empty it is neither offered nor accepted,
//      refused as if FIRST-9 held for every seat, the starter included).
//   2. "zero-engine" (breaks ENG-1): round 16's engine is taken as [15-15], not [0-0]
//      (`TOP - (round - 1) || TOP`, JavaScript's 0 read as false); the trains start
//      from 15 and the start is counted from its pips.
//   3. "first-turn-shift" (breaks FIRST-6): the end of a turn strikes the first seat
//      listed in first_turns, not the mover's: a round that does not start at the first
//      listed seat loses the wrong first turn.
'use strict';

const readline = require('readline');

const TOP = 15; // double-15
const ROUNDS = TOP + 1;
const HAND_SIZES = { 2: 17, 3: 16, 4: 15, 5: 13, 6: 12, 7: 11, 8: 10, 9: 9, 10: 8 };

const BUG_NAMES = ['first-mexican', 'zero-engine', 'first-turn-shift'];
const bugs = new Set(BUG_NAMES);
for (const arg of process.argv.slice(2)) {
  if (arg === '--fixed') bugs.clear();
  else if (arg.startsWith('--bug=')) {
    bugs.clear();
    bugs.add(arg.slice(6));
  }
}

const RULES = {
  name: 'gondola',
  options: {
    tile_set: 'double-15',
    hand_sizes: 'custom',
    engine_procedure: 'set-aside',
    starting_seat: 'other',
    first_turn: 'single',
    mexican_first_turn: 'anyone',
    own_train_first: 'not-required',
    doubles: 'open',
    follow_up: 'other',
    double_order: 'other',
    uncoverable_double: 'stays-open',
    marker_removal: 'owner-plays-own',
    draw_rule: 'draw-one',
    blocked_round: 'full-round-of-passes',
    scoring: 'penalty',
    blank_values: 'face',
    tie_rule: 'shared',
    match_length: 'full',
  },
  hand_sizes: Object.fromEntries(Object.entries(HAND_SIZES).map(([k, v]) => [String(k), v])),
};

class Answer extends Error {
  constructor(kind, message, extra) {
    super(message);
    this.kind = kind;
    this.extra = extra || {};
  }
}

// ---- tiles ----------------------------------------------------------------

function parseTile(text) {
  const m = /^(\d+)-(\d+)$/.exec(String(text));
  if (!m) throw new Answer('bad-request', `not a tile: ${JSON.stringify(text)}`);
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (a > TOP || b > TOP) throw new Answer('unsupported', `gondola plays double-15 only, not ${text}`);
  return [a, b];
}
const hi = (t) => Math.max(t[0], t[1]);
const lo = (t) => Math.min(t[0], t[1]);
const canon = (t) => `${hi(t)}-${lo(t)}`;
const isDouble = (t) => t[0] === t[1];
function sortHand(hand) {
  return hand.slice().sort((x, y) => {
    const a = parseTile(x);
    const b = parseTile(y);
    return hi(b) - hi(a) || lo(b) - lo(a);
  });
}
const handValue = (hand) => hand.reduce((s, x) => s + parseTile(x)[0] + parseTile(x)[1], 0); // SCORE-1

// ---- the state ---------------------------------------------------------------

function refuseCount(n) {
  return new Answer('refused-setup', `gondola deals to 2 to 10 players, not ${n}`, { clause: 'DEAL-7' });
}

function readState(st) {
  if (!st || typeof st !== 'object' || !Array.isArray(st.hands)) throw new Answer('bad-request', 'no state');
  if (st.phase === 'engine' || st.phase === 'chain') {
    throw new Answer('unsupported', `gondola has no phase ${st.phase}: the engine is set aside and every turn is one tile`);
  }
  if (!HAND_SIZES[st.hands.length]) throw refuseCount(st.hands.length);
  for (const h of st.hands) h.forEach(parseTile);
  st.boneyard.forEach(parseTile);
  return JSON.parse(JSON.stringify(st));
}

const trainOf = (st, ref) => (ref === 'mexican' ? st.mexican : st.trains[ref]);
const sameRef = (a, b) => String(a) === String(b);
const has = (refs, ref) => refs.some((r) => sameRef(r, ref));

// The trains the player may use in an ordinary turn (TRAIN-4, MARK-1, MARK-2, FIRST-8).
function ordinaryTrains(st) {
  const refs = [];
  const firstTurn = st.first_turns.includes(st.seat);
  if (!(bugs.has('first-mexican') && firstTurn && st.mexican.tiles.length === 0)) refs.push('mexican');
  st.trains.forEach((t, i) => {
    if (i === st.seat || t.marker) refs.push(i);
  });
  return refs;
}

// The double an obliged player must cover: house rule "mind your own" (double_order:
// other) takes the one on their own train first, else the oldest (DBL-6).
function dueDouble(st) {
  return has(st.open_doubles, st.seat) ? st.seat : st.open_doubles[0];
}

// The trains a tile may go on now.
function allowedTrains(st) {
  if (st.phase === 'start' && st.open_doubles.length > 0) return [dueDouble(st)]; // DBL-6, TRAIN-6
  if (st.phase === 'follow') {
    // house rule "home or cover" (follow_up: other): a double of this turn or one's own train
    const refs = st.turn_doubles.slice();
    if (!has(refs, st.seat)) refs.push(st.seat);
    return refs;
  }
  return ordinaryTrains(st);
}

function plays(st) {
  const tiles = st.drawn !== null ? [st.drawn] : st.hands[st.seat]; // TURN-3
  const out = [];
  for (const ref of allowedTrains(st)) {
    const end = trainOf(st, ref).end;
    for (const x of tiles) {
      const t = parseTile(x);
      if (t[0] === end || t[1] === end) out.push({ type: 'play', tile: canon(t), train: ref }); // TRAIN-2
    }
  }
  return out;
}

function legal(st) {
  if (st.phase === 'over') return []; // END-1
  const p = plays(st);
  if (p.length > 0) return p; // TURN-1
  if (st.drawn === null && st.boneyard.length > 0) return [{ type: 'draw' }]; // TURN-2
  return [{ type: 'pass' }]; // TURN-4, DBL-5
}

function endTurn(st) {
  // TURN-6; FIRST-6: the mover's first turn is over
  if (bugs.has('first-turn-shift')) st.first_turns = st.first_turns.slice(1);
  else st.first_turns = st.first_turns.filter((s) => s !== st.seat);
  st.seat = (st.seat + 1) % st.hands.length;
  st.phase = 'start';
  st.drawn = null;
  st.turn_doubles = [];
}

function roundScores(st, winner) {
  return st.hands.map((h, i) => (i === winner ? 0 : handValue(h))); // SCORE-5
}

function finish(st, end, winner) {
  const scores = roundScores(st, winner);
  st.phase = 'over';
  st.drawn = null;
  st.turn_doubles = [];
  st.scores = st.scores.map((s, i) => s + scores[i]); // MATCH-1
  if (winner !== null) st.outs[winner] += 1;
  st.result = { end, winner, scores };
}

const refuse = (reason, clause) => ({ refused: { reason, clause } });

function refusal(st, action) {
  if (st.phase === 'over') return refuse('the round is over', 'END-1');
  const kind = action.type;
  const canPlay = plays(st).length > 0;
  if (kind === 'end-chain') return refuse('every turn is one tile: there is no chain to end', 'FIRST-7');
  if (kind === 'draw') {
    if (canPlay) return refuse('a tile can be played', 'TURN-1');
    if (st.drawn !== null) return refuse('one draw a turn', 'TURN-2');
    if (st.boneyard.length === 0) return refuse('the boneyard is empty', 'TURN-4');
    return null;
  }
  if (kind === 'pass') {
    if (canPlay) return refuse('a tile can be played', 'TURN-1');
    if (st.drawn === null && st.boneyard.length > 0) return refuse('draw first', 'TURN-2');
    return null;
  }
  const t = parseTile(action.tile);
  const text = canon(t);
  if (!st.hands[st.seat].includes(text)) return refuse(`seat ${st.seat} does not hold ${text}`, 'TURN-7');
  const ref = action.train;
  if (!(ref === 'mexican' || (Number.isInteger(ref) && ref >= 0 && ref < st.hands.length))) {
    return refuse(`there is no train ${JSON.stringify(ref)}`, 'TRAIN-1');
  }
  if (st.drawn !== null && st.drawn !== text) return refuse(`only the drawn ${st.drawn} may be played`, 'TURN-3');
  const end = trainOf(st, ref).end;
  if (t[0] !== end && t[1] !== end) return refuse(`${text} does not match the open end ${end}`, 'TRAIN-2');
  if (has(allowedTrains(st), ref)) return null;
  if (st.phase === 'start' && st.open_doubles.length > 0) {
    if (has(st.open_doubles, ref)) return refuse('the double on your own train comes first', 'DBL-6');
    return refuse('an open double must be covered first', 'DBL-6');
  }
  if (st.phase === 'follow') return refuse('the tile after a double goes on it or on your own train', 'DBL-2');
  if (ref === 'mexican') return refuse('the Mexican Train opens after your first turn', 'FIRST-9');
  return refuse(`seat ${ref}'s train carries no marker`, 'TRAIN-4');
}

function apply(st, action) {
  if (!action || typeof action !== 'object') throw new Answer('bad-request', 'no action');
  const kinds = { play: ['type', 'tile', 'train'], draw: ['type'], pass: ['type'], 'end-chain': ['type'] };
  if (!kinds[action.type]) throw new Answer('bad-request', `not an action: ${JSON.stringify(action)}`);
  for (const k of Object.keys(action)) {
    if (!kinds[action.type].includes(k)) throw new Answer('bad-request', `${action.type} has no field ${k}`);
  }
  const why = refusal(st, action);
  if (why) return why;
  const seat = st.seat;
  const n = st.hands.length;
  if (action.type === 'draw') {
    const tile = st.boneyard.shift(); // TURN-2
    st.hands[seat] = sortHand([...st.hands[seat], tile]);
    st.drawn = tile;
    return { state: st };
  }
  if (action.type === 'pass') {
    st.trains[seat].marker = true; // TURN-4, MARK-1, DBL-5
    if (st.boneyard.length === 0) st.passes += 1; // END-3 counts passes on an empty boneyard
    endTurn(st);
    if (st.passes >= n) finish(st, 'blocked', null); // END-3
    return { state: st };
  }
  const t = parseTile(action.tile);
  const text = canon(t);
  const ref = action.train;
  const train = trainOf(st, ref);
  const far = t[0] === train.end ? t[1] : t[0];
  train.tiles.push(`${train.end}-${far}`); // near end first (TRAIN-2)
  train.end = far;
  if (ref === seat) train.marker = false; // MARK-3: the owner's tile takes it off
  st.hands[seat] = st.hands[seat].filter((x) => x !== text);
  st.drawn = null;
  st.passes = 0;
  st.open_doubles = st.open_doubles.filter((d) => !sameRef(d, ref)); // a tile on a double covers it
  st.turn_doubles = st.turn_doubles.filter((d) => !sameRef(d, ref));
  const out = st.hands[seat].length === 0;
  if (isDouble(t)) st.open_doubles.push(ref); // DBL-1
  if (out) {
    finish(st, 'domino', seat); // END-1: a last double needs no cover
    return { state: st };
  }
  if (isDouble(t)) {
    st.turn_doubles.push(ref);
    st.phase = 'follow'; // DBL-1: a follow-up is due
    return { state: st };
  }
  endTurn(st); // TURN-6
  return { state: st };
}

function engineOf(round) {
  if (bugs.has('zero-engine')) return TOP - (round - 1) || TOP;
  return TOP - (round - 1); // ENG-1
}

function deal(req) {
  const n = req.players;
  const round = req.round;
  if (!HAND_SIZES[n]) throw refuseCount(n);
  if (!Number.isInteger(round) || round < 1 || round > ROUNDS) {
    throw new Answer('refused-setup', `a double-15 match has rounds 1 to ${ROUNDS}, not ${round}`, { clause: 'MATCH-1' });
  }
  const engine = engineOf(round);
  const order = req.order.map((x) => canon(parseTile(x)));
  const expected = ((TOP + 1) * (TOP + 2)) / 2 - 1;
  if (order.length !== expected) {
    throw new Answer('unsupported', `gondola deals a double-15 set without the engine: ${expected} tiles, got ${order.length}`);
  }
  const size = HAND_SIZES[n];
  const hands = [];
  for (let s = 0; s < n; s++) hands.push(sortHand(order.slice(s * size, (s + 1) * size)));
  const starter = (2 * engine) % n; // house rule "engine-count start"
  return {
    round,
    engine,
    engine_placed: true, // ENG-2
    phase: 'start',
    seat: starter,
    starter,
    hands,
    boneyard: order.slice(n * size),
    trains: hands.map(() => ({ tiles: [], end: engine, marker: false })),
    mexican: { tiles: [], end: engine },
    open_doubles: [],
    turn_doubles: [],
    drawn: null,
    first_turns: hands.map((_, i) => i),
    passes: 0,
    scores: hands.map(() => 0),
    outs: hands.map(() => 0),
    result: null,
  };
}

function score(st, hasWinner, winner) {
  let w = winner;
  if (!hasWinner) {
    if (st.phase !== 'over') throw new Answer('bad-request', 'no winner given and the round is not over');
    w = st.result.winner;
  }
  if (w !== null && st.hands[w].length !== 0) throw new Answer('bad-request', `seat ${w} has not gone out`);
  return roundScores(st, w);
}

function winners(st) {
  if (st.phase !== 'over' || st.round < ROUNDS) return []; // MATCH-1
  const best = Math.min(...st.scores); // MATCH-2
  return st.scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0); // MATCH-4
}

function handle(req) {
  switch (req.type) {
    case 'hello':
      if (req.protocol !== 1) {
        throw new Answer('protocol-version', `gondola speaks protocol 1, not ${req.protocol}`, { supported: [1] });
      }
      return { protocol: 1, name: 'gondola', version: bugs.size ? '0.1-bugs' : '0.1', rules: RULES };
    case 'deal':
      return { state: deal(req) };
    case 'legal':
      return { actions: legal(readState(req.state)) };
    case 'apply':
      return apply(readState(req.state), req.action);
    case 'score':
      return { scores: score(readState(req.state), 'winner' in req, req.winner ?? null) };
    case 'winners':
      return { winners: winners(readState(req.state)) };
    case 'shutdown':
      return {};
    default:
      throw new Answer('bad-request', `unknown request type ${JSON.stringify(req.type)}`);
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  let req;
  let answer;
  try {
    req = JSON.parse(line);
  } catch (e) {
    answer = { id: null, ok: false, error: { kind: 'bad-request', message: `not JSON: ${e.message}` } };
  }
  if (req !== undefined) {
    const id = req && typeof req === 'object' && Number.isInteger(req.id) ? req.id : null;
    try {
      answer = { id, ok: true, ...handle(req) };
    } catch (e) {
      if (e instanceof Answer) answer = { id, ok: false, error: { kind: e.kind, message: e.message, ...e.extra } };
      else answer = { id, ok: false, error: { kind: 'internal', message: String(e && e.stack) } };
    }
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
  if (req && req.type === 'shutdown') process.exit(0);
});
rl.on('close', () => process.exit(0));
