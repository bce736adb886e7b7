#!/usr/bin/env node
// reachstacker: a Mexican Train engine for node 18+ (node's own modules only), written
// from docs/protocol.md and the rule pages alone, as a family's app would be; it speaks
// protocol v1 on stdin/stdout. (A reach stacker is the lorry that lifts containers off
// a train: this one lifts the biggest double out of the deal.)
//
// Its shape: a readline loop; each request's table is read into a plain Game object
// (hands as arrays of [hi, lo] pairs, trains as arrays of written tiles), worked on and
// written back. It ignores the rule set a request carries and plays its own.
//
// What it plays (reachstacker-rules.yaml beside it says the same, option by option):
//   - a double-10 set (66 tiles), eleven rounds a match (MATCH-1); the family wanted a
//     double-13 box, but the suite knew no double-13 set (its first run said so and ran
//     nothing), so the app was written for the double-10 box they also own. Once the
//     suite knew every double-N set (session 60), the author added `--set=13`: the same
//     rules on the family's double-13 box (105 tiles, fourteen rounds, the round's own
//     double [14-r, 14-r]); `--set=10`, or no --set, is the double-10 box as before;
//   - a hand table of its own, 3 to 8 players (any other count is refused, DEAL-7): on
//     double-10 3 take 13, 4 take 11, 5 take 10, 6 take 9, 7 take 8, 8 take 7; on
//     double-13 (reachstacker-d13-rules.yaml) 3 take 16, 4 take 15, 5 take 13, 6 take
//     12, 7 take 10, 8 take 9;
//   - the seat after the one who placed the engine plays first (SEAT-4);
//   - anyone may open the Mexican Train (FIRST-8); nobody must start their own train
//     before playing elsewhere, once their first turn is over;
//   - doubles are open: a double asks its layer for another tile, which may go anywhere
//     they may play (DBL-1, DBL-2); one left open binds the players after, who may play
//     only by covering it, oldest first (DBL-6, DBL-7), until every tile of its number
//     is on the table (DBL-9);
//   - a player who cannot play draws one tile (TURN-2), and plays it or passes with the
//     marker up (TURN-3, TURN-4); a marker comes off when its owner plays on their own
//     train (MARK-3);
//   - the round ends blocked after a full round of passes on an empty boneyard (END-3);
//     penalty scoring, blanks worth 0, lowest total wins, ties shared (SCORE-1, MATCH-2,
//     MATCH-4).
//   House rules, which no known value describes (the file says `other`):
//   - "biggest double leads" (engine_procedure: other): every tile is dealt (the pool is
//     the whole set). The highest double any hand holds is the round's engine, whatever
//     the round; its holder places it at once (their hand is one tile short), and that
//     placing is their first turn. Nobody holding a double, the round's own double
//     ([N+1-r, N+1-r] on double-N) is taken out of the boneyard, nobody drawing, and round r starts
//     at seat (r - 1) mod n as under SEAT-3 (nobody placed it, so every seat has a first
//     turn). `highest-double-held` (ENG-7) makes players draw for a double instead, and
//     its holder still has a first turn.
//   - "home first" (first_turn: other): on a player's first turn of the round, every
//     tile they lay goes on their own train, nowhere else, the tile a double of it asks
//     for included; an open double elsewhere binds nobody during it. One who cannot play
//     there draws one tile and lays it there or passes, marker up. After that turn they
//     play anywhere they may, one tile a turn. The engine's placer (above) has had their
//     first turn: that is where the two rules meet. A refusal by this rule names no clause.
//
// Planted bugs, all on with --bugs (and with nothing), off with --fixed (--bug=NAME: that
// one alone); each names the
// clause it breaks (written before any suite command ran on it):
//   1. "one-train-draw" (breaks TURN-3): after drawing, the drawn tile is listed on the
//      first train it fits only (the personal trains by seat, then the Mexican), as if
//      a drawn tile had one place to go: a drawn tile fitting two trains misses a play.
//   2. "marker-anywhere" (breaks MARK-3): the marker comes off when its owner plays any
//      tile anywhere, not only on their own train.
//   3. "newest-first" (breaks DBL-7): with several open doubles binding, the newest must
//      be covered first, not the oldest.
'use strict';

const readline = require('readline');

const argv = process.argv.slice(2);
// --set=N: the box played, double-10 (the default) or the family's double-13
const TABLES = {
  10: { 3: 13, 4: 11, 5: 10, 6: 9, 7: 8, 8: 7 },
  13: { 3: 16, 4: 15, 5: 13, 6: 12, 7: 10, 8: 9 },
};
const SETS = argv.filter((a) => a.startsWith('--set=')).map((a) => a.slice(6));
if (SETS.length > 1 || (SETS.length && !(SETS[0] in TABLES))) {
  process.stderr.write(`reachstacker: --set takes 10 or 13, not ${SETS.join(', ')}\n`);
  process.exit(2);
}
const HIGH = SETS.length ? Number(SETS[0]) : 10;
const ROUNDS = HIGH + 1;
const TABLE = TABLES[HIGH];
const OPTIONS = {
  tile_set: `double-${HIGH}`, hand_sizes: 'custom', engine_procedure: 'other',
  starting_seat: 'after-engine', first_turn: 'other', mexican_first_turn: 'anyone',
  own_train_first: 'not-required', doubles: 'open', follow_up: 'anywhere',
  double_order: 'oldest-first', uncoverable_double: 'released',
  marker_removal: 'owner-plays-own', draw_rule: 'draw-one',
  blocked_round: 'full-round-of-passes', scoring: 'penalty', blank_values: 'face',
  tie_rule: 'shared', match_length: 'full',
};

// --bug=NAME turns on that planted bug alone
const ONLY = argv.filter((a) => a.startsWith('--bug=')).map((a) => a.slice(6));
const ON = (name) => !argv.includes('--fixed') && (!ONLY.length || ONLY.includes(name));
const BUG_DRAW = ON('one-train-draw');
const BUG_MARKER = ON('marker-anywhere');
const BUG_ORDER = ON('newest-first');

class BadRequest extends Error {}
class Unsupported extends Error {}
class RefusedSetup extends Error {
  constructor(message, clause) { super(message); this.clause = clause; }
}

// --- tiles ------------------------------------------------------------------------

function parseTile(text, where) {
  const m = typeof text === 'string' ? /^(\d{1,2})-(\d{1,2})$/.exec(text) : null;
  if (!m) throw new BadRequest(`${where}: not a tile: ${JSON.stringify(text)}`);
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (a > 18 || b > 18) throw new BadRequest(`${where}: no tile ${text}`);
  return [a, b];
}
const key = (t) => `${Math.max(t[0], t[1])}-${Math.min(t[0], t[1])}`;
const isDouble = (t) => t[0] === t[1];
const pips = (t) => t[0] + t[1];
const byHighest = (x, y) => Math.max(y[0], y[1]) - Math.max(x[0], x[1])
  || Math.min(y[0], y[1]) - Math.min(x[0], x[1]);

function fullSet() {
  const out = [];
  for (let a = 0; a <= HIGH; a++) for (let b = 0; b <= a; b++) out.push(key([a, b]));
  return out;
}

// --- reading and writing a table ---------------------------------------------------

function need(obj, field, where) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new BadRequest(`${where}: not an object`);
  }
  if (!(field in obj)) throw new BadRequest(`${where}: missing ${field}`);
  return obj[field];
}
function int(v, where) {
  if (!Number.isInteger(v) || v < 0) throw new BadRequest(`${where}: not a count: ${v}`);
  return v;
}
function list(v, where) {
  if (!Array.isArray(v)) throw new BadRequest(`${where}: not a list`);
  return v;
}

function readState(s) {
  const g = {};
  for (const f of ['round', 'seat', 'starter', 'passes', 'engine']) g[f] = int(need(s, f, 'state'), `state.${f}`);
  g.phase = need(s, 'phase', 'state');
  if (!['engine', 'start', 'chain', 'follow', 'over'].includes(g.phase)) {
    throw new BadRequest(`state.phase: ${JSON.stringify(g.phase)}`);
  }
  const hands = list(need(s, 'hands', 'state'), 'state.hands');
  const n = hands.length;
  if (!(n in TABLE)) {
    throw new RefusedSetup(`reachstacker deals to 3 to 8 players, not ${n}`, 'DEAL-7');
  }
  if (g.phase === 'engine' || g.phase === 'chain') { // a table its own rules never reach
    throw new Unsupported(`reachstacker never has a '${g.phase}' phase`);
  }
  g.n = n;
  g.hands = hands.map((h, i) => list(h, `state.hands[${i}]`).map((t) => parseTile(t, `state.hands[${i}]`)));
  g.boneyard = list(need(s, 'boneyard', 'state'), 'state.boneyard').map((t) => parseTile(t, 'state.boneyard'));
  const trains = list(need(s, 'trains', 'state'), 'state.trains');
  if (trains.length !== n) throw new BadRequest('state.trains: one per seat');
  g.trains = trains.map((t, i) => ({
    tiles: list(need(t, 'tiles', `state.trains[${i}]`), 'tiles').map((x) => parseTile(x, 'tiles')),
    end: int(need(t, 'end', `state.trains[${i}]`), 'end'),
    marker: need(t, 'marker', `state.trains[${i}]`) === true,
  }));
  const mx = need(s, 'mexican', 'state');
  g.mexican = {
    tiles: list(need(mx, 'tiles', 'state.mexican'), 'tiles').map((x) => parseTile(x, 'tiles')),
    end: int(need(mx, 'end', 'state.mexican'), 'end'),
  };
  const ref = (r) => (r === 'mexican' ? 'mexican' : int(r, 'a train'));
  g.open = list(need(s, 'open_doubles', 'state'), 'open_doubles').map(ref);
  g.turnDoubles = list(need(s, 'turn_doubles', 'state'), 'turn_doubles').map(ref);
  const drawn = need(s, 'drawn', 'state');
  g.drawn = drawn === null ? null : parseTile(drawn, 'state.drawn');
  g.firstTurns = list(need(s, 'first_turns', 'state'), 'first_turns').map((x) => int(x, 'first_turns'));
  g.scores = list(need(s, 'scores', 'state'), 'scores').map((x) => int(x, 'scores'));
  g.outs = list(need(s, 'outs', 'state'), 'outs').map((x) => int(x, 'outs'));
  g.result = need(s, 'result', 'state');
  for (const t of [...g.hands.flat(), ...g.boneyard]) {
    if (t[0] > HIGH || t[1] > HIGH) {
      throw new RefusedSetup(`reachstacker plays double-${HIGH}: no tile ${key(t)}`, 'SET-1');
    }
  }
  if (g.round > ROUNDS) throw new RefusedSetup(`a match has ${ROUNDS} rounds`, 'MATCH-1');
  if (g.seat >= n) throw new BadRequest(`state.seat: ${g.seat} at a table of ${n}`);
  return g;
}

function trainOf(g, t) { return t === 'mexican' ? g.mexican : g.trains[t]; }

function writeState(g) {
  const written = (tiles) => tiles.map((t) => `${t[0]}-${t[1]}`);
  return {
    round: g.round, engine: g.engine, engine_placed: true, phase: g.phase, seat: g.seat,
    starter: g.starter,
    hands: g.hands.map((h) => h.slice().sort(byHighest).map(key)),
    boneyard: g.boneyard.map(key),
    trains: g.trains.map((t) => ({ tiles: written(t.tiles), end: t.end, marker: t.marker })),
    mexican: { tiles: written(g.mexican.tiles), end: g.mexican.end },
    open_doubles: g.open.slice(), turn_doubles: g.turnDoubles.slice(),
    drawn: g.drawn === null ? null : key(g.drawn),
    first_turns: g.firstTurns.slice().sort((a, b) => a - b),
    passes: g.passes, scores: g.scores.slice(), outs: g.outs.slice(), result: g.result,
  };
}

// --- the deal ------------------------------------------------------------------------

function deal(req) {
  const n = int(need(req, 'players', 'deal'), 'players');
  const round = int(need(req, 'round', 'deal'), 'round');
  const order = list(need(req, 'order', 'deal'), 'order').map((t) => parseTile(t, 'order'));
  if (!(n in TABLE)) {
    throw new RefusedSetup(`reachstacker deals to 3 to 8 players, not ${n}`, 'DEAL-7');
  }
  if (round < 1 || round > ROUNDS) {
    throw new RefusedSetup(`a match has ${ROUNDS} rounds, not ${round}`, 'MATCH-1');
  }
  const keys = order.map(key);
  const set = fullSet();
  if (new Set(keys).size !== keys.length || keys.length !== set.length
      || !set.every((k) => keys.includes(k))) {
    throw new BadRequest(`order: the pool must be the whole double-${HIGH} set, each tile once`);
  }
  const size = TABLE[n];
  const hands = [];
  for (let i = 0; i < n; i++) hands.push(order.slice(i * size, (i + 1) * size));
  let boneyard = order.slice(n * size);
  // "biggest double leads": the highest double dealt is the engine, placed by its holder
  let holder = -1;
  let engine = -1;
  hands.forEach((h, seat) => h.forEach((t) => {
    if (isDouble(t) && t[0] > engine) { engine = t[0]; holder = seat; }
  }));
  let starter;
  let firstTurns = [...Array(n).keys()];
  if (holder >= 0) {
    hands[holder] = hands[holder].filter((t) => !(isDouble(t) && t[0] === engine));
    starter = (holder + 1) % n; // SEAT-4
    firstTurns = firstTurns.filter((s) => s !== holder); // placing it was their first turn
  } else {
    engine = HIGH - (round - 1); // nobody holds a double: the round's own, from the boneyard
    boneyard = boneyard.filter((t) => !(isDouble(t) && t[0] === engine));
    starter = (round - 1) % n;
  }
  return {
    round, engine, phase: 'start', seat: starter, starter, n, hands, boneyard,
    trains: hands.map(() => ({ tiles: [], end: engine, marker: false })),
    mexican: { tiles: [], end: engine }, open: [], turnDoubles: [], drawn: null,
    firstTurns, passes: 0, scores: Array(n).fill(0), outs: Array(n).fill(0), result: null,
  };
}

// --- what may be played ---------------------------------------------------------------

function onTable(g) {
  const seen = [];
  for (const t of g.trains) seen.push(...t.tiles);
  seen.push(...g.mexican.tiles);
  return seen;
}

// DBL-9: an open double binds while some tile of its number is off the table
function binds(g, ref) {
  const num = trainOf(g, ref).end;
  const laid = onTable(g).filter((t) => t[0] === num || t[1] === num).length;
  return laid + (num === g.engine ? 1 : 0) < HIGH + 1; // the engine bears its number
}

// the trains the player to act may use now, and which clause closes each other one
function access(g) {
  const seat = g.seat;
  const all = [...g.trains.keys(), 'mexican'];
  if (g.firstTurns.includes(seat)) {
    return { open: [seat], closed: (t) => (t === seat ? null : 'house') }; // "home first"
  }
  const duty = g.open.filter((r) => !g.turnDoubles.includes(r) && binds(g, r));
  if (duty.length) {
    const must = BUG_ORDER ? duty[duty.length - 1] : duty[0]; // DBL-7: oldest first
    return {
      open: [must],
      closed: (t) => (t === must ? null : duty.includes(t) ? 'DBL-7' : 'DBL-6'),
    };
  }
  // TRAIN-4: own, Mexican, marked; TRAIN-6: an open double wherever it lies
  const ok = (t) => t === seat || t === 'mexican' || g.trains[t].marker || g.open.includes(t);
  return { open: all.filter(ok), closed: (t) => (ok(t) ? null : 'TRAIN-4') };
}

const fits = (tile, end) => tile[0] === end || tile[1] === end;

function plays(g) {
  const { open } = access(g);
  const hand = g.hands[g.seat];
  const tiles = g.drawn === null ? hand : hand.filter((t) => key(t) === key(g.drawn));
  const out = [];
  for (const tile of tiles) {
    for (const train of open) {
      if (fits(tile, trainOf(g, train).end)) {
        out.push({ type: 'play', tile: key(tile), train });
        if (BUG_DRAW && g.drawn !== null) break; // bug 1: one train for the drawn tile
      }
    }
  }
  return out;
}

function legal(g) {
  if (g.phase === 'over') return [];
  const found = plays(g);
  if (found.length) return found; // TURN-1
  if (g.drawn === null && g.boneyard.length) return [{ type: 'draw' }]; // TURN-2
  return [{ type: 'pass' }]; // TURN-4
}

// --- what an action does --------------------------------------------------------------

function readAction(a) {
  if (a === null || typeof a !== 'object' || Array.isArray(a)) throw new BadRequest('action: not an object');
  const fields = { play: ['type', 'tile', 'train'], draw: ['type'], pass: ['type'], 'end-chain': ['type'] };
  const want = fields[a.type];
  if (!want) throw new BadRequest(`action.type: ${JSON.stringify(a.type)}`);
  for (const f of Object.keys(a)) if (!want.includes(f)) throw new BadRequest(`action: unknown field ${f}`);
  for (const f of want) if (!(f in a)) throw new BadRequest(`action: missing ${f}`);
  if (a.type !== 'play') return { type: a.type };
  const tile = parseTile(a.tile, 'action.tile');
  if (!(a.train === 'mexican' || (Number.isInteger(a.train) && a.train >= 0))) {
    throw new BadRequest(`action.train: ${JSON.stringify(a.train)}`);
  }
  return { type: 'play', tile, train: a.train };
}

function refusal(g, a) {
  if (g.phase === 'over') return ['the round is over', 'END-1'];
  const found = plays(g);
  if (a.type === 'end-chain') return ['no first turn here lays a chain', 'FIRST-7'];
  if (a.type === 'draw' || a.type === 'pass') {
    if (found.length) return ['a tile can be played', 'TURN-1'];
    if (a.type === 'draw' && g.drawn !== null) return ['one draw a turn', 'TURN-2'];
    if (a.type === 'draw' && !g.boneyard.length) return ['the boneyard is empty: pass', 'TURN-4'];
    if (a.type === 'pass' && g.drawn === null && g.boneyard.length) return ['draw first', 'TURN-2'];
    return null;
  }
  const { tile, train } = a;
  const hand = g.hands[g.seat];
  if (!hand.some((t) => key(t) === key(tile))) return [`${key(tile)} is not in hand`, 'TURN-7'];
  if (tile[0] > HIGH || tile[1] > HIGH) return [`no tile ${key(tile)}`, 'SET-1'];
  if (train !== 'mexican' && train >= g.n) return [`no train ${train}`, 'TRAIN-1'];
  if (!fits(tile, trainOf(g, train).end)) return [`${key(tile)} does not match`, 'TRAIN-2'];
  if (g.drawn !== null && key(g.drawn) !== key(tile)) return ['only the drawn tile', 'TURN-3'];
  const why = access(g).closed(train);
  if (why === 'house') return ['on a first turn, only on one\'s own train', null];
  if (why) return [`train ${train} is closed to seat ${g.seat}`, why];
  return null;
}

function handValue(h) { return h.reduce((s, t) => s + pips(t), 0); } // SCORE-1

function finish(g, winner) {
  const scores = g.hands.map(handValue);
  g.phase = 'over';
  g.result = { end: winner === null ? 'blocked' : 'domino', winner, scores };
  g.scores = g.scores.map((s, i) => s + scores[i]);
  if (winner !== null) g.outs[winner] += 1;
  g.turnDoubles = [];
  g.drawn = null;
}

function endTurn(g) {
  g.firstTurns = g.firstTurns.filter((s) => s !== g.seat);
  g.turnDoubles = [];
  g.drawn = null;
  g.phase = 'start';
  g.seat = (g.seat + 1) % g.n;
  if (!g.boneyard.length && g.passes >= g.n) finish(g, null); // END-3
}

function perform(g, a) {
  const seat = g.seat;
  if (a.type === 'draw') {
    g.drawn = g.boneyard.shift();
    g.hands[seat].push(g.drawn);
    return;
  }
  if (a.type === 'pass') {
    g.trains[seat].marker = true; // TURN-4, MARK-1
    if (!g.boneyard.length) g.passes += 1;
    endTurn(g);
    return;
  }
  const { tile, train } = a;
  g.hands[seat] = g.hands[seat].filter((t) => key(t) !== key(tile));
  const line = trainOf(g, train);
  const near = line.end;
  const far = tile[0] === near ? tile[1] : tile[0];
  line.tiles.push([near, far]);
  line.end = far;
  if (train === seat || BUG_MARKER) g.trains[seat].marker = false; // MARK-3 (bug 2: any train)
  if (g.open.includes(train)) {
    g.open = g.open.filter((r) => r !== train);
    g.turnDoubles = g.turnDoubles.filter((r) => r !== train);
  }
  g.drawn = null;
  g.passes = 0;
  if (isDouble(tile)) { g.open.push(train); g.turnDoubles.push(train); }
  if (!g.hands[seat].length) { finish(g, seat); return; } // END-1
  if (isDouble(tile)) { g.phase = 'follow'; return; } // DBL-1
  endTurn(g); // TURN-6
}

// --- the match ------------------------------------------------------------------------

function winners(g) {
  if (g.phase !== 'over' || g.round < ROUNDS) return [];
  const low = Math.min(...g.scores); // MATCH-2
  return g.scores.map((s, i) => [s, i]).filter(([s]) => s === low).map(([, i]) => i); // MATCH-4
}

function score(req, g) {
  if ('winner' in req && req.winner !== null) {
    const w = int(req.winner, 'winner');
    if (w >= g.n || g.hands[w].length) throw new BadRequest(`winner ${w} still holds tiles`);
  } else if (!('winner' in req) && g.phase !== 'over') {
    throw new BadRequest('score without a winner asks about a finished round');
  }
  return g.hands.map(handValue);
}

// --- the protocol -----------------------------------------------------------------------

function hello(req) {
  if (req.protocol !== 1) {
    return { ok: false, error: { kind: 'protocol-version', message: `this engine speaks protocol 1, not ${req.protocol}`, supported: [1] } };
  }
  return {
    ok: true, protocol: 1, name: 'reachstacker', version: '1.0.0',
    rules: { name: 'reachstacker', options: OPTIONS, hand_sizes: TABLE },
  };
}

function handle(req) {
  if (req === null || typeof req !== 'object' || Array.isArray(req)) throw new BadRequest('not an object');
  switch (req.type) {
    case 'hello': return hello(req);
    case 'shutdown': return { ok: true };
    case 'deal': return { ok: true, state: writeState(deal(req)) };
    case 'legal': return { ok: true, actions: legal(readState(need(req, 'state', 'legal'))) };
    case 'apply': {
      const g = readState(need(req, 'state', 'apply'));
      const a = readAction(need(req, 'action', 'apply'));
      const no = refusal(g, a);
      if (no) return { ok: true, refused: { reason: no[0], clause: no[1] } };
      perform(g, a);
      return { ok: true, state: writeState(g) };
    }
    case 'score': return { ok: true, scores: score(req, readState(need(req, 'state', 'score'))) };
    case 'winners': return { ok: true, winners: winners(readState(need(req, 'state', 'winners'))) };
    default: throw new BadRequest(`unknown request type ${JSON.stringify(req.type)}`);
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let req = null;
  let answer;
  try {
    req = JSON.parse(line);
    answer = handle(req);
  } catch (e) {
    let kind = 'internal';
    if (e instanceof SyntaxError || e instanceof BadRequest) kind = 'bad-request';
    if (e instanceof Unsupported) kind = 'unsupported';
    const error = { kind, message: String(e.message) };
    if (e instanceof RefusedSetup) { error.kind = 'refused-setup'; error.clause = e.clause; }
    if (kind === 'internal' && !(e instanceof RefusedSetup) && !(e instanceof Unsupported)) process.stderr.write(`${e.stack}\n`);
    answer = { ok: false, error };
  }
  const id = req && typeof req === 'object' && Number.isInteger(req.id) ? req.id : null;
  process.stdout.write(`${JSON.stringify({ id, ...answer })}\n`);
  if (req && req.type === 'shutdown') process.exit(0);
});
