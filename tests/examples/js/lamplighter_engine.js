#!/usr/bin/env node
// Lamplighter: our club's Mexican Train, as a protocol v1 server (JSON lines on stdin/stdout).
// Written from RULES.md, the implementer's guide and protocol.md only.
//
// Club rules: a double-15 box, 2 to 8 players with our own hand table, the engine set aside,
// the start moving one seat each round, one tile a turn, any train open to anyone from the
// start (Mexican included), doubles are plain tiles, draw one when stuck.
// House rules:
//  - "lamps out at dawn": a marker (a lit lamp) comes off when its owner's next turn begins,
//    whatever they then do; it is up only between a failed turn and the owner's next turn.
//  - "all lamps lit": with the boneyard empty, the round is blocked at the end of a turn
//    that leaves every personal train marked.
//  - "fewest doubles": equal lowest totals at the end go to the one holding the fewest
//    doubles in the last hand; still equal, shared.
//
// Planted bugs (see lamplighter-bugs.md), on unless --fixed or LAMPLIGHTER_FIXED=1.
'use strict';
const readline = require('readline');

const FIXED = process.argv.includes('--fixed') || process.env.LAMPLIGHTER_FIXED === '1';
// LAMPLIGHTER_ONLY=drawnAny (say) plants that bug alone, to see what each one costs
const ONLY = process.env.LAMPLIGHTER_ONLY;
const on = (name) => !FIXED && (!ONLY || ONLY === name);
const BUG = {
  drawnAny: on('drawnAny'),     // after a draw any fitting tile may be played, not only the drawn one
  bottomDraw: on('bottomDraw'), // a draw takes the boneyard's last tile
  noOut: on('noOut'),           // going out does not count in `outs`
};

const TOP = 15;
const HANDS = { 2: 16, 3: 15, 4: 14, 5: 13, 6: 12, 7: 11, 8: 10 };
const ROUNDS = TOP + 1;

const RULES = {
  name: 'lamplighter',
  options: {
    tile_set: 'double-15', hand_sizes: 'custom', engine_procedure: 'set-aside',
    starting_seat: 'rotate', first_turn: 'single', mexican_first_turn: 'anyone',
    own_train_first: 'not-required', doubles: 'ordinary', follow_up: 'anywhere',
    double_order: 'oldest-first', uncoverable_double: 'stays-open',
    marker_removal: 'other', draw_rule: 'draw-one', blocked_round: 'other',
    scoring: 'penalty', blank_values: 'face', tie_rule: 'other', match_length: 'full',
  },
  hand_sizes: Object.fromEntries(Object.entries(HANDS).map(([k, v]) => [k, v])),
};

class BadRequest extends Error {}
class Setup extends Error { constructor(msg, clause) { super(msg); this.clause = clause; } }

// ---- tiles ----
function parseTile(s, what) {
  if (typeof s !== 'string') throw new BadRequest(`${what}: a tile is a text "a-b", got ${JSON.stringify(s)}`);
  const m = /^(\d{1,2})-(\d{1,2})$/.exec(s);
  if (!m) throw new BadRequest(`${what}: not a tile: ${JSON.stringify(s)}`);
  const a = Number(m[1]); const b = Number(m[2]);
  if (a > 18 || b > 18) throw new BadRequest(`${what}: tile ends go from 0 to 18: ${s}`);
  return [a, b];
}
const key = (t) => `${Math.max(t[0], t[1])}-${Math.min(t[0], t[1])}`;
const pips = (t) => t[0] + t[1];
const inSet = (t) => t[0] <= TOP && t[1] <= TOP;

function fullSet() {
  const out = [];
  for (let a = TOP; a >= 0; a--) for (let b = a; b >= 0; b--) out.push([a, b]);
  return out;
}

// ---- state in and out ----
const STATE_FIELDS = ['round', 'engine', 'engine_placed', 'phase', 'seat', 'starter', 'hands',
  'boneyard', 'trains', 'mexican', 'open_doubles', 'turn_doubles', 'drawn', 'first_turns',
  'passes', 'scores', 'outs', 'result'];

function int(v, what) {
  if (!Number.isInteger(v) || v < 0) throw new BadRequest(`${what}: a whole number 0 or more, got ${JSON.stringify(v)}`);
  return v;
}

function readState(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new BadRequest('state: not an object');
  for (const f of STATE_FIELDS) if (!(f in s)) throw new BadRequest(`state: missing field ${f}`);
  for (const f of Object.keys(s)) if (!STATE_FIELDS.includes(f)) throw new BadRequest(`state: unknown field ${f}`);
  if (!Array.isArray(s.hands) || s.hands.length < 1) throw new BadRequest('state.hands: a list of hands');
  const n = s.hands.length;
  if (!HANDS[n]) throw new Setup(`lamplighter seats 2 to 8 players, not ${n}`, 'DEAL-7');
  if (s.phase === 'engine' || s.phase === 'chain' || s.phase === 'follow') {
    const e = new Error(`phase ${s.phase} never happens in our game`); e.unsupported = true; throw e;
  }
  if (s.phase !== 'start' && s.phase !== 'over') throw new BadRequest(`state.phase: unknown ${JSON.stringify(s.phase)}`);
  const st = {
    round: int(s.round, 'state.round'), engine: int(s.engine, 'state.engine'),
    phase: s.phase, seat: int(s.seat, 'state.seat'), starter: int(s.starter, 'state.starter'),
    hands: s.hands.map((h, i) => { if (!Array.isArray(h)) throw new BadRequest(`state.hands[${i}]: a list`); return h.map((t) => parseTile(t, `state.hands[${i}]`)); }),
    boneyard: (Array.isArray(s.boneyard) ? s.boneyard : (() => { throw new BadRequest('state.boneyard: a list'); })()).map((t) => parseTile(t, 'state.boneyard')),
    trains: [], mexican: null,
    drawn: s.drawn === null ? null : parseTile(s.drawn, 'state.drawn'),
    first_turns: Array.isArray(s.first_turns) ? s.first_turns.map((x) => int(x, 'state.first_turns')) : (() => { throw new BadRequest('state.first_turns: a list'); })(),
    passes: int(s.passes, 'state.passes'),
    scores: s.scores.map((x) => int(x, 'state.scores')), outs: s.outs.map((x) => int(x, 'state.outs')),
    result: s.result,
  };
  if (s.engine_placed !== true) { const e = new Error('the engine is always placed in our game'); e.unsupported = true; throw e; }
  if (st.seat >= n) throw new BadRequest(`state.seat ${st.seat}: the table has ${n} seats`);
  if (!Array.isArray(s.trains) || s.trains.length !== n) throw new BadRequest(`state.trains: one per seat (${n})`);
  st.trains = s.trains.map((tr, i) => ({
    tiles: tr.tiles.map((t) => parseTile(t, `state.trains[${i}].tiles`)), end: int(tr.end, `state.trains[${i}].end`), marker: !!tr.marker,
  }));
  st.mexican = { tiles: s.mexican.tiles.map((t) => parseTile(t, 'state.mexican.tiles')), end: int(s.mexican.end, 'state.mexican.end') };
  if (s.open_doubles.length || s.turn_doubles.length) { const e = new Error('doubles never stay open in our game'); e.unsupported = true; throw e; }
  for (const [i, h] of st.hands.entries()) for (const t of h) if (!inSet(t)) throw new BadRequest(`state.hands[${i}]: ${key(t)} is not a double-15 tile`);
  return st;
}

function writeState(st) {
  return {
    round: st.round, engine: st.engine, engine_placed: true, phase: st.phase, seat: st.seat, starter: st.starter,
    hands: st.hands.map((h) => h.map(key)), boneyard: st.boneyard.map(key),
    trains: st.trains.map((tr) => ({ tiles: tr.tiles.map((t) => `${t[0]}-${t[1]}`), end: tr.end, marker: tr.marker })),
    mexican: { tiles: st.mexican.tiles.map((t) => `${t[0]}-${t[1]}`), end: st.mexican.end },
    open_doubles: [], turn_doubles: [], drawn: st.drawn === null ? null : key(st.drawn),
    first_turns: [...st.first_turns].sort((a, b) => a - b), passes: st.passes,
    scores: st.scores, outs: st.outs, result: st.result,
  };
}

// ---- the game ----
function deal(req) {
  const n = req.players; const r = req.round;
  if (!Number.isInteger(n) || n < 1) throw new BadRequest('players: a whole number');
  if (!Number.isInteger(r) || r < 1) throw new BadRequest('round: a whole number from 1');
  if (!HANDS[n]) throw new Setup(`lamplighter has no hand size for ${n} players (2 to 8)`, 'DEAL-7');
  if (r > ROUNDS) throw new Setup(`a double-15 match has ${ROUNDS} rounds`, 'MATCH-1');
  const engine = TOP - (r - 1);
  if (!Array.isArray(req.order)) throw new BadRequest('order: a list of tiles');
  const pool = req.order.map((t) => parseTile(t, 'order'));
  const want = new Set(fullSet().filter((t) => !(t[0] === engine && t[1] === engine)).map(key));
  const got = new Set(pool.map(key));
  if (pool.length !== want.size || got.size !== want.size || [...got].some((k) => !want.has(k))) {
    throw new BadRequest(`order: the ${want.size} tiles of double-15 without the engine [${engine}-${engine}]`);
  }
  const size = HANDS[n];
  const hands = [];
  for (let i = 0; i < n; i++) hands.push(pool.slice(i * size, (i + 1) * size).sort((a, b) => (Math.max(...b) - Math.max(...a)) || (Math.min(...b) - Math.min(...a))));
  const starter = (r - 1) % n;
  return {
    round: r, engine, phase: 'start', seat: starter, starter, hands,
    boneyard: pool.slice(n * size),
    trains: hands.map(() => ({ tiles: [], end: engine, marker: false })),
    mexican: { tiles: [], end: engine }, drawn: null,
    first_turns: hands.map((_, i) => i), passes: 0,
    scores: hands.map(() => 0), outs: hands.map(() => 0), result: null,
  };
}

function canUse(st, train) {
  if (train === 'mexican') return true;
  return train === st.seat || st.trains[train].marker;
}
const trainEnd = (st, train) => (train === 'mexican' ? st.mexican.end : st.trains[train].end);
const trainName = (train) => (train === 'mexican' ? 'the Mexican Train' : `seat ${train}'s train`);

function plays(st) {
  const hand = st.hands[st.seat];
  const candidates = st.drawn && !BUG.drawnAny ? hand.filter((t) => key(t) === key(st.drawn)) : hand;
  const out = [];
  const trains = [...st.trains.keys(), 'mexican'];
  for (const t of candidates) {
    for (const tr of trains) {
      if (!canUse(st, tr)) continue;
      const e = trainEnd(st, tr);
      if (t[0] === e || t[1] === e) out.push({ type: 'play', tile: key(t), train: tr });
    }
  }
  return out;
}

function legal(st) {
  if (st.phase === 'over') return [];
  const p = plays(st);
  if (p.length) return p;
  if (st.drawn === null && st.boneyard.length) return [{ type: 'draw' }];
  return [{ type: 'pass' }];
}

function score(st) {
  return st.hands.map((h) => h.reduce((s, t) => s + pips(t), 0));
}

function nextTurn(st) {
  const n = st.hands.length;
  st.first_turns = st.first_turns.filter((x) => x !== st.seat);
  st.drawn = null;
  // "all lamps lit": an empty boneyard and every personal train marked ends the round.
  if (st.boneyard.length === 0 && st.trains.every((tr) => tr.marker)) {
    const sc = score(st);
    st.phase = 'over';
    st.seat = (st.seat + 1) % n;
    st.scores = st.scores.map((x, i) => x + sc[i]);
    st.result = { end: 'blocked', winner: null, scores: sc };
    return;
  }
  st.seat = (st.seat + 1) % n;
  // "lamps out at dawn": the new mover's marker comes off as their turn begins.
  st.trains[st.seat].marker = false;
}

function refuse(reason, clause) { return { refused: { reason, clause } }; }

function apply(st, action) {
  if (!action || typeof action !== 'object' || Array.isArray(action)) throw new BadRequest('action: not an object');
  const kinds = { play: ['type', 'tile', 'train'], draw: ['type'], pass: ['type'], 'end-chain': ['type'] };
  if (!(action.type in kinds)) throw new BadRequest(`action.type: unknown ${JSON.stringify(action.type)}`);
  for (const f of Object.keys(action)) if (!kinds[action.type].includes(f)) throw new BadRequest(`action: field ${f} does not belong to a ${action.type}`);
  for (const f of kinds[action.type]) if (!(f in action)) throw new BadRequest(`action: a ${action.type} needs ${f}`);
  if (st.phase === 'over') return refuse('the round is over', 'END-1');
  const n = st.hands.length;
  const hand = st.hands[st.seat];
  const p = plays(st);
  if (action.type === 'end-chain') return refuse('there are no chains in our game: one tile a turn', 'FIRST-7');
  if (action.type === 'draw') {
    if (p.length) return refuse('you have a tile to play', 'TURN-1');
    if (st.drawn !== null) return refuse('one draw a turn', 'TURN-2');
    if (!st.boneyard.length) return refuse('the boneyard is empty', 'TURN-4');
    const t = BUG.bottomDraw ? st.boneyard.pop() : st.boneyard.shift();
    hand.push(t);
    st.drawn = t;
    return { state: st };
  }
  if (action.type === 'pass') {
    if (p.length) return refuse('you have a tile to play', 'TURN-1');
    if (st.drawn === null && st.boneyard.length) return refuse('draw first', 'TURN-2');
    st.trains[st.seat].marker = true;
    if (!st.boneyard.length) st.passes += 1;
    nextTurn(st);
    return { state: st };
  }
  // a play
  const t = parseTile(action.tile, 'action.tile');
  const tr = action.train;
  if (!(tr === 'mexican' || (Number.isInteger(tr) && tr >= 0))) throw new BadRequest(`action.train: a seat or "mexican", got ${JSON.stringify(tr)}`);
  const idx = hand.findIndex((h) => key(h) === key(t));
  if (idx < 0) return refuse(`you do not hold ${key(t)}`, 'TURN-7');
  if (!inSet(t)) return refuse(`${key(t)} is not a double-15 tile`, 'SET-1');
  if (tr !== 'mexican' && tr >= n) return refuse(`there is no train ${tr} at a table of ${n}`, 'TRAIN-1');
  const e = trainEnd(st, tr);
  if (t[0] !== e && t[1] !== e) return refuse(`${key(t)} does not match ${trainName(tr)}, which ends in ${e}`, 'TRAIN-2');
  if (st.drawn && !BUG.drawnAny && key(st.drawn) !== key(t)) return refuse(`after drawing you may play only ${key(st.drawn)}`, 'TURN-3');
  if (!canUse(st, tr)) return refuse(`${trainName(tr)} carries no marker; only its owner may play on it`, 'TRAIN-4');
  hand.splice(idx, 1);
  const laid = t[0] === e ? [t[0], t[1]] : [t[1], t[0]];
  const target = tr === 'mexican' ? st.mexican : st.trains[tr];
  target.tiles.push(laid);
  target.end = laid[1];
  st.passes = 0;
  if (hand.length === 0) {
    const sc = score(st);
    st.phase = 'over';
    st.drawn = null;
    st.first_turns = st.first_turns.filter((x) => x !== st.seat);
    st.scores = st.scores.map((x, i) => x + sc[i]);
    if (!BUG.noOut) st.outs[st.seat] += 1;
    st.result = { end: 'domino', winner: st.seat, scores: sc };
    return { state: st };
  }
  nextTurn(st);
  return { state: st };
}

function winners(st) {
  if (st.phase !== 'over' || st.engine !== 0) return [];
  const low = Math.min(...st.scores);
  let best = st.scores.map((s, i) => i).filter((i) => st.scores[i] === low);
  if (best.length > 1) {
    // "fewest doubles": fewest doubles left in the last hand wins.
    const d = (i) => st.hands[i].filter((t) => t[0] === t[1]).length;
    const fewest = Math.min(...best.map(d));
    best = best.filter((i) => d(i) === fewest);
  }
  return best;
}

function checkRuleset(rs) {
  if (!rs || typeof rs !== 'object') throw new BadRequest('ruleset: missing');
}

function handle(req) {
  switch (req.type) {
    case 'hello':
      if (req.protocol !== 1) return { error: { kind: 'protocol-version', message: `lamplighter speaks protocol 1, not ${req.protocol}`, supported: [1] } };
      return { protocol: 1, name: 'lamplighter', version: '1.0.0', rules: RULES };
    case 'deal': checkRuleset(req.ruleset); return { state: writeState(deal(req)) };
    case 'legal': checkRuleset(req.ruleset); return { actions: legal(readState(req.state)) };
    case 'apply': {
      checkRuleset(req.ruleset);
      const res = apply(readState(req.state), req.action);
      return res.refused ? res : { state: writeState(res.state) };
    }
    case 'score': {
      checkRuleset(req.ruleset);
      const st = readState(req.state);
      if (req.winner !== undefined && req.winner !== null) {
        if (!Number.isInteger(req.winner) || req.winner >= st.hands.length) throw new BadRequest('winner: a seat');
        if (st.hands[req.winner].length) throw new BadRequest(`winner: seat ${req.winner} still holds tiles`);
      } else if (req.winner === undefined && st.phase !== 'over') throw new BadRequest('score: without winner the round must be over');
      return { scores: score(st) };
    }
    case 'winners': checkRuleset(req.ruleset); return { winners: winners(readState(req.state)) };
    case 'shutdown': return {};
    default: throw new BadRequest(`unknown request type ${JSON.stringify(req.type)}`);
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  line = line.replace(/^\uFEFF/, '').replace(/\r$/, '');
  if (!line.trim()) return;
  let req; let id = null;
  try { req = JSON.parse(line); } catch (e) {
    process.stdout.write(JSON.stringify({ id: null, ok: false, error: { kind: 'bad-request', message: `not JSON: ${e.message}` } }) + '\n');
    return;
  }
  if (req && typeof req === 'object' && Number.isInteger(req.id)) id = req.id;
  let ans;
  try {
    if (!req || typeof req !== 'object' || Array.isArray(req)) throw new BadRequest('a request is an object');
    if (!Number.isInteger(req.id)) throw new BadRequest('id: an integer');
    const out = handle(req);
    ans = out.error ? { id, ok: false, error: out.error } : { id, ok: true, ...out };
  } catch (e) {
    if (e instanceof BadRequest) ans = { id, ok: false, error: { kind: 'bad-request', message: e.message } };
    else if (e instanceof Setup) ans = { id, ok: false, error: { kind: 'refused-setup', message: e.message, clause: e.clause } };
    else if (e.unsupported) ans = { id, ok: false, error: { kind: 'unsupported', message: e.message } };
    else if (e instanceof TypeError) ans = { id, ok: false, error: { kind: 'bad-request', message: `malformed request: ${e.message}` } };
    else { process.stderr.write(`${e.stack}\n`); ans = { id, ok: false, error: { kind: 'internal', message: String(e.message) } }; }
  }
  process.stdout.write(JSON.stringify(ans) + '\n');
  if (req && req.type === 'shutdown') process.exit(0);
});
rl.on('close', () => process.exit(0));
