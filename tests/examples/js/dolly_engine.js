#!/usr/bin/env node
// dolly: a Mexican Train engine for node (no packages), written from docs/protocol.md,
// docs/implementers-guide.md and the rule pages alone, as an app author would, speaking
// protocol v1 on stdin/stdout. Its state and its JSON are its own; it ignores the rule
// set each request carries and plays its own rules, as an app does.
//
// What it plays (dolly-rules.yaml beside it says the same, option by option):
//   - a double-11 set (78 tiles); the engine of round r is [k-k], k = 12 - r: [11-11]
//     in round 1 down to [0-0] in round 12 (ENG-1), set aside before the deal (ENG-2);
//   - 3 to 7 players, with the club's own hand sizes: 3 players 13, 4 players 11,
//     5 players 10, 6 players 9, 7 players 8 (any other count is refused, DEAL-7);
//   - one tile a turn from the start; anyone may open the Mexican Train at once;
//   - pagat's doubles: the tile after a double may go anywhere (DBL-2), an open double
//     from an earlier turn must be covered first, oldest first (DBL-6, DBL-7), and one
//     nobody can cover stays open (DBL-10);
//   - draw one tile when you cannot play (TURN-2), the drawn tile only (TURN-3); a
//     marker comes off when its owner plays on their own train (MARK-3); the round ends
//     blocked after a full round of passes on an empty boneyard (END-3).
//   House rules (no known value describes them: the rules file says `other`):
//   - "heavy hand leads" (starting_seat: other): every round, the player dealt the
//     most pips (face value) plays first; of equal heaviest hands, the lowest seat.
//   - "tile tax" (scoring: other): penalty scoring, but each tile left in a hand costs
//     its pips plus 5; the player who went out scores 0; lowest total wins.
//   - "last hand decides" (tie_rule: other): of players level on the lowest total at
//     the match's end, the one who held the fewest pips (face value) when the last
//     round ended wins alone; still level, they share the win.
//
// Planted bugs, all three on with --bugs (or one at a time: --bug=NAME), off by
// default, written down before any mtrain command ran on it. Each names the clause it
// breaks:
//   1. "draw-anyway" (breaks TURN-1): where a play exists the legal list also offers
//      a draw (while the boneyard holds a tile), and apply accepts that draw.
//   2. "sticky-marker" (breaks MARK-3): a marker stays up when its owner plays on
//      their own train, except when the tile covers an open double there.
//   3. "double-ends-turn" (breaks DBL-1): a double laid on the Mexican Train ends the
//      turn at once (the double stays open for the next players), no follow-up asked.
'use strict';

const readline = require('readline');

const TOP = 11; // double-11
const ROUNDS = TOP + 1;
const HAND_SIZES = { 3: 13, 4: 11, 5: 10, 6: 9, 7: 8 };
const TILE_TAX = 5; // house rule "tile tax"

const BUG_NAMES = ['draw-anyway', 'sticky-marker', 'double-ends-turn'];
const bugs = new Set();
for (const arg of process.argv.slice(2)) {
  if (arg === '--bugs') BUG_NAMES.forEach((b) => bugs.add(b));
  else if (arg.startsWith('--bug=')) bugs.add(arg.slice(6));
}

const RULES = {
  name: 'dolly',
  options: {
    tile_set: 'double-11',
    hand_sizes: 'custom',
    engine_procedure: 'set-aside',
    starting_seat: 'other',
    first_turn: 'single',
    mexican_first_turn: 'anyone',
    own_train_first: 'not-required',
    doubles: 'open',
    follow_up: 'anywhere',
    double_order: 'oldest-first',
    uncoverable_double: 'stays-open',
    marker_removal: 'owner-plays-own',
    draw_rule: 'draw-one',
    blocked_round: 'full-round-of-passes',
    scoring: 'other',
    blank_values: 'face',
    tie_rule: 'other',
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
  if (a > TOP || b > TOP) throw new Answer('unsupported', `dolly plays double-11 only, not ${text}`);
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
function pips(hand) {
  return hand.reduce((s, x) => s + parseTile(x)[0] + parseTile(x)[1], 0); // SCORE-1
}
function handValue(hand) {
  // house rule "tile tax" (scoring: other): each tile costs its pips plus 5
  return pips(hand) + TILE_TAX * hand.length;
}

// ---- the state ---------------------------------------------------------------

function readState(st) {
  if (!st || typeof st !== 'object') throw new Answer('bad-request', 'no state');
  if (st.phase === 'engine' || st.phase === 'chain') {
    throw new Answer('unsupported', `dolly has no phase ${st.phase}: the engine is set aside and every turn is one tile`);
  }
  const n = st.hands.length;
  if (!HAND_SIZES[n]) {
    throw new Answer('refused-setup', `dolly deals to 3 to 7 players, not ${n}`, { clause: 'DEAL-7' });
  }
  for (const h of st.hands) h.forEach(parseTile);
  st.boneyard.forEach(parseTile);
  return JSON.parse(JSON.stringify(st));
}

function trainOf(st, ref) {
  return ref === 'mexican' ? st.mexican : st.trains[ref];
}
function sameRef(a, b) {
  return String(a) === String(b);
}

// The trains the player may use in an ordinary turn (TRAIN-4, MARK-1, MARK-2).
function ordinaryTrains(st) {
  const refs = ['mexican'];
  st.trains.forEach((t, i) => {
    if (i === st.seat || t.marker) refs.push(i);
  });
  return refs;
}

// The trains a tile may go on now, with the clause that narrows them.
function allowedTrains(st) {
  const ordinary = ordinaryTrains(st);
  if (st.phase === 'start' && st.open_doubles.length > 0) {
    // DBL-6, DBL-7: an open double from an earlier turn, the oldest first
    const oldest = st.open_doubles[0];
    return [oldest]; // TRAIN-6: covering is allowed wherever it lies
  }
  if (st.phase === 'follow') {
    // DBL-2: anywhere the player may play, the doubles of this turn included
    const refs = ordinary.slice();
    for (const d of st.turn_doubles) {
      if (!refs.some((r) => sameRef(r, d))) {
        refs.push(d); // TRAIN-6
      }
    }
    return refs;
  }
  return ordinary;
}

function plays(st) {
  const seat = st.seat;
  const tiles = st.drawn !== null ? [st.drawn] : st.hands[seat]; // TURN-3
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
  if (p.length > 0 && bugs.has('draw-anyway') && st.drawn === null && st.boneyard.length > 0) {
    return [...p, { type: 'draw' }]; // planted bug "draw-anyway"
  }
  if (p.length > 0) return p; // TURN-1
  if (st.drawn === null && st.boneyard.length > 0) return [{ type: 'draw' }]; // TURN-2
  return [{ type: 'pass' }]; // TURN-4
}

function endTurn(st) {
  // TURN-6, FIRST-6
  st.first_turns = st.first_turns.filter((s) => s !== st.seat);
  st.seat = (st.seat + 1) % st.hands.length;
  st.phase = 'start';
  st.drawn = null;
  st.turn_doubles = [];
}

function roundScores(st, winner) {
  // SCORE-5 with the house rule's tile values
  return st.hands.map((h, i) => (i === winner ? 0 : handValue(h)));
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

function refuse(reason, clause) {
  return { refused: { reason, clause } };
}

function refusal(st, action) {
  if (st.phase === 'over') return refuse('the round is over', 'END-1');
  const kind = action.type;
  const canPlay = plays(st).length > 0;
  if (kind === 'end-chain') return refuse('every turn is one tile: there is no chain to end', 'FIRST-7');
  if (kind === 'draw') {
    if (canPlay && !(bugs.has('draw-anyway') && st.drawn === null && st.boneyard.length > 0)) {
      return refuse('a tile can be played', 'TURN-1');
    }
    if (st.boneyard.length === 0) return refuse('the boneyard is empty', 'TURN-4');
    if (st.drawn !== null) return refuse('one draw a turn', 'TURN-2');
    return null;
  }
  if (kind === 'pass') {
    if (canPlay) return refuse('a tile can be played', 'TURN-1');
    if (st.drawn === null && st.boneyard.length > 0) return refuse('draw first', 'TURN-2');
    return null;
  }
  // a play
  const t = parseTile(action.tile);
  const text = canon(t);
  if (!st.hands[st.seat].includes(text)) return refuse(`seat ${st.seat} does not hold ${text}`, 'TURN-7');
  const ref = action.train;
  const n = st.hands.length;
  if (!(ref === 'mexican' || (Number.isInteger(ref) && ref >= 0 && ref < n))) {
    return refuse(`there is no train ${JSON.stringify(ref)}`, 'TRAIN-1');
  }
  const end = trainOf(st, ref).end;
  if (t[0] !== end && t[1] !== end) return refuse(`${text} does not match the open end ${end}`, 'TRAIN-2');
  if (st.drawn !== null && st.drawn !== text) return refuse(`only the drawn ${st.drawn} may be played`, 'TURN-3');
  const ordinary = ordinaryTrains(st);
  const covering = st.open_doubles.some((d) => sameRef(d, ref)); // TRAIN-6
  if (!ordinary.some((r) => sameRef(r, ref)) && !covering) {
    return refuse(`seat ${ref}'s train carries no marker`, 'TRAIN-4');
  }
  if (!allowedTrains(st).some((r) => sameRef(r, ref))) {
    if (st.phase === 'start' && st.open_doubles.length > 0) {
      if (st.open_doubles.some((d) => sameRef(d, ref))) return refuse('the oldest open double comes first', 'DBL-7');
      return refuse('an open double must be covered first', 'DBL-6');
    }
    return refuse('that train is closed', 'TRAIN-4');
  }
  return null;
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
  if (action.type === 'draw') {
    const tile = st.boneyard.shift(); // TURN-2
    st.hands[seat] = sortHand([...st.hands[seat], tile]);
    st.drawn = tile;
    return { state: st };
  }
  if (action.type === 'pass') {
    st.trains[seat].marker = true; // TURN-4, MARK-1
    if (st.boneyard.length === 0) st.passes += 1; // END-3 counts passes on an empty boneyard
    endTurn(st);
    if (st.passes >= st.hands.length) {
      st.seat = (seat + 1) % st.hands.length;
      finish(st, 'blocked', null); // END-3
    }
    return { state: st };
  }
  // a play
  const t = parseTile(action.tile);
  const text = canon(t);
  const ref = action.train;
  const train = trainOf(st, ref);
  const far = t[0] === train.end ? t[1] : t[0];
  train.tiles.push(`${train.end}-${far}`); // near end first (TRAIN-2)
  train.end = far;
  const coversHere = st.open_doubles.some((d) => sameRef(d, ref));
  if (sameRef(ref, seat) && !(bugs.has('sticky-marker') && !coversHere)) train.marker = false; // MARK-3
  st.hands[seat] = st.hands[seat].filter((x) => x !== text);
  st.drawn = null;
  st.passes = 0;
  // a tile on an open double covers it
  st.open_doubles = st.open_doubles.filter((d) => !sameRef(d, ref));
  st.turn_doubles = st.turn_doubles.filter((d) => !sameRef(d, ref));
  const out = st.hands[seat].length === 0;
  if (isDouble(t)) {
    if (out) {
      st.open_doubles.push(ref); // uncovered, though nobody need cover it now
      finish(st, 'domino', seat); // END-1: a last double needs no cover
      return { state: st };
    }
    st.open_doubles.push(ref); // DBL-1
    if (bugs.has('double-ends-turn') && ref === 'mexican') {
      endTurn(st); // planted bug "double-ends-turn"
      return { state: st };
    }
    st.turn_doubles.push(ref);
    st.phase = 'follow';
    return { state: st };
  }
  if (out) {
    finish(st, 'domino', seat); // END-1
    return { state: st };
  }
  endTurn(st); // TURN-6
  return { state: st };
}

function deal(req) {
  const n = req.players;
  const round = req.round;
  if (!HAND_SIZES[n]) {
    throw new Answer('refused-setup', `dolly deals to 3 to 7 players, not ${n}`, { clause: 'DEAL-7' });
  }
  if (!Number.isInteger(round) || round < 1 || round > ROUNDS) {
    throw new Answer('refused-setup', `a double-9 match has rounds 1 to ${ROUNDS}, not ${round}`, { clause: 'MATCH-1' });
  }
  const engine = TOP - (round - 1); // ENG-1
  const order = req.order.map((x) => canon(parseTile(x)));
  const expected = ((TOP + 1) * (TOP + 2)) / 2 - 1;
  if (order.length !== expected || order.includes(`${engine}-${engine}`)) {
    throw new Answer('unsupported', `dolly deals a double-11 set without the engine: ${expected} tiles, got ${order.length}`);
  }
  const size = HAND_SIZES[n];
  const hands = [];
  for (let s = 0; s < n; s++) hands.push(sortHand(order.slice(s * size, (s + 1) * size)));
  // house rule "heavy hand leads" (starting_seat: other): the most pips dealt, lowest seat of equals
  let starter = 0;
  hands.forEach((h, i) => {
    if (pips(h) > pips(hands[starter])) starter = i;
  });
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
  const level = st.scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0);
  // house rule "last hand decides" (tie_rule: other): the lightest last hand, else shared
  const light = Math.min(...level.map((i) => pips(st.hands[i])));
  return level.filter((i) => pips(st.hands[i]) === light);
}

function handle(req) {
  switch (req.type) {
    case 'hello':
      if (req.protocol !== 1) {
        throw new Answer('protocol-version', `dolly speaks protocol 1, not ${req.protocol}`, { supported: [1] });
      }
      return { protocol: 1, name: 'dolly', version: bugs.size ? '1.0-bugs' : '1.0', rules: RULES };
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
    process.stderr.write(`dolly: ${req && req.type} #${id}\n`);
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
