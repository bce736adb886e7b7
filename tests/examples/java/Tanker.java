/*
 * Tanker: a Mexican Train engine in Java 17 (the JDK alone), the rules core of a desktop
 * game sold with a double-16 box, put behind a small protocol v1 server to test it. Written
 * from README.md, docs/protocol.md and docs/implementers-guide.md; the JSON reader and
 * writer and the server loop follow the shape of tests/examples/java/Drover.java. (A
 * tank car carries liquids; it was first named Gondola, a name a JavaScript example
 * already had.)
 *
 * Build and run:   javac -d out Tanker.java && java -cp out Tanker [--fixed | --bug=NAME]
 *                  [--set=N]   (N the set's highest double, 16 unless said: see below)
 *
 * What it plays (tanker-rules.yaml beside it says the same, option by option). Written
 * down before any suite command ran on it:
 *   - a double-16 set (153 tiles); round r's engine is [17-r, 17-r] (ENG-1), set aside
 *     before the deal (ENG-2); seventeen rounds, [16-16] down to [0-0] (match_length full);
 *   - its own hand sizes, 2 to 8 players: 2 take 20, 3 take 18, 4 take 16, 5 take 14,
 *     6 take 12, 7 take 11, 8 take 10 (any other count is refused, DEAL-7);
 *   - one tile a turn from the start (first_turn single); anyone may open the Mexican Train
 *     on their first turn (mexican_first_turn anyone);
 *   - open doubles (doubles open); the tile after a double may go anywhere the player may
 *     play (follow_up anywhere); open doubles of earlier turns are covered oldest first
 *     (double_order oldest-first, DBL-7); one nobody can cover stays open (uncoverable_double
 *     stays-open, DBL-10);
 *   - a player who cannot play draws one tile and passes if it cannot be played
 *     (draw_rule draw-one, TURN-2); a pass puts the passer's marker up (MARK-1);
 *   - the round ends blocked after a full round of passes on an empty boneyard
 *     (blocked_round full-round-of-passes, END-3); penalty scoring, blanks worth 0, lowest
 *     total wins, equal totals share the win (scoring penalty, blank_values face, tie_rule
 *     shared).
 *   Three house rules, none of which a known value describes (`other` in the file):
 *   - "low double leads" (starting_seat: other): after each round's deal, the player whose
 *     hand holds the lowest double plays first; when no hand holds a double, round r starts
 *     at seat (r - 1) mod n. `rotate` ignores the hands; `engine-holder` and `after-engine`
 *     need an engine held, and this one is set aside; `highest-draw` draws before the match;
 *     `heaviest-in-hand` looks for the heaviest tile, double or not.
 *   - "home first, doubles excepted" (own_train_first: other): until a player's own train
 *     holds a tile they may play only on it, except that a double may be laid on any train
 *     they could otherwise use (the Mexican Train, a marked train); a double to cover still
 *     comes first (DBL-6), and the tile after a double may also go on a double laid that
 *     turn. `required` keeps every tile home, doubles too; `not-required` lets every tile out.
 *   - "home or a double" (marker_removal: other): a marker comes off when its owner plays a
 *     tile on their own train, or lays a double on any train. `owner-plays-own` leaves it up
 *     after a double laid elsewhere; `owner-plays-anywhere` takes it off for any tile laid
 *     anywhere; `anyone-plays-on` for anyone's tile on that train.
 *   What its hello declares is what the author believed when writing it: starting_seat and
 *   marker_removal `other`, but own_train_first `required` (the author took the doubles
 *   exception for a detail of `required`): a wrong known name for that house rule.
 *
 * --set=N plays a double-N set instead (N from 6 to 18), with the same table and rules and
 * N + 1 rounds; the hello then declares tile_set double-N. The box is double-16: the switch
 * is how the app's "smaller box" mode is tested.
 *
 * It ignores the rule set each request carries: it plays its own rules, as an app does.
 * Tiles outside a train are written high end first, a hand in the order dealt with a drawn
 * tile last; answers' keys come out in hash order.
 *
 * Planted bugs, all on unless --fixed is given (--bug=NAME alone turns on one only; --bugs
 * turns on all, the default). Each names the clause it breaks and when it shows (written
 * before any suite command ran on it):
 *   1. "blank-hand" (breaks SCORE-1, SCORE-5): the scorer first asks whether a hand "looks
 *      empty", and a hand each of whose tiles bears a blank end is taken for one: it scores
 *      0. Shows only at a round's end where a hand left holds blank tiles alone
 *      ([0-5] and [0-9] left: 14, scored 0); a hand with [0-0] alone is right by luck.
 *   2. "double-keeps-count" (breaks END-3): the passes counted on an empty boneyard go back
 *      to 0 when a tile is laid, but the reset sits in the branch for a tile that ends the
 *      turn, so a double laid leaves the count as it was: with the boneyard empty, passes
 *      before a double and after it add up and the round is called blocked early.
 *   3. "first-pass" (breaks FIRST-6): a player who lays a double on their first turn and
 *      then passes in its follow-up (no cover, the draw in vain) keeps their first turn:
 *      the pass in the "follow" phase moves the seat on without taking the seat out of
 *      first_turns.
 *
 * Found by the runs (written after them, session 53; nothing above was changed but the
 * name). The suite knew no double-16 set: the hello's `tile_set: double-16` stopped
 * conform and identify at once (exit 2, "unknown value 'double-16'"), and no rule-set
 * file could say it; double-16 is now a set of the catalogue (SET-9, DEAL-11). identify
 * then (232 CPU s with the bugs on, 233 off, at load 7 to 10, caches cold after the
 * catalogue changed): every option as played but own_train_first, written `required` as
 * declared, "contradicted (or other)" by regression-own-first-double-001 alone (a double
 * laid elsewhere before one's own train is started); starting_seat and marker_removal
 * `other` (margins 22 and 2: marker-018 alone tells this marker rule apart); bug 1 read
 * as a bug in SCORE-5, scoring kept `penalty`. conform under tanker-rules.yaml: bugs off
 * 1,042 results, none failing (73 not applicable); bugs on, bug 1 failed 6 (SCORE-5), and
 * bugs 2 and 3 passed everything until house53c-002 (END-3) and house53c-001 (FIRST-6,
 * charged DBL-5 until attribution was fixed) were written: no fixture had laid a double
 * with passes counted, nor passed a first turn's follow-up. fuzz (40 games, seed 1) found
 * bug 1 (INV-ROUND-SCORE, SCORE-5); bug 2 in 200 games (seed 2, `after play: passes`);
 * bug 3 in none of 200. Under identify's file (own_train_first `required`) the house
 * rule fails 7 results, charged TRAIN-7, as identify foretold.
 */

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class Tanker {
    static int TOP = 16;  // the box's highest double; --set=N changes it
    static int ROUNDS = TOP + 1;
    static final int MEXICAN = -1;  // the Mexican Train's index inside; "mexican" outside
    static final Map<Integer, Integer> HAND = new HashMap<>();
    static {
        HAND.put(2, 20); HAND.put(3, 18); HAND.put(4, 16); HAND.put(5, 14);
        HAND.put(6, 12); HAND.put(7, 11); HAND.put(8, 10);
    }
    static final String[] BUG_NAMES = {"blank-hand", "double-keeps-count", "first-pass"};
    static final Set<String> bugs = new HashSet<>(List.of(BUG_NAMES));

    /** An answer that is an error: kind, message, and an optional clause. */
    static final class Failure extends RuntimeException {
        final String kind;
        final String clause;
        Failure(String kind, String message, String clause) {
            super(message);
            this.kind = kind;
            this.clause = clause;
        }
        Failure(String kind, String message) { this(kind, message, null); }
    }

    // ---- JSON, read and written by hand (the JDK has no JSON) -------------------------

    static final class Json {
        private final String s;
        private int i;
        private Json(String s) { this.s = s; }

        static Object parse(String text) {
            Json p = new Json(text);
            p.space();
            Object v = p.value();
            p.space();
            if (p.i != p.s.length()) throw p.bad("text after the value");
            return v;
        }

        private RuntimeException bad(String why) {
            return new IllegalArgumentException(why + " at character " + i);
        }
        private void space() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
        }
        private Object value() {
            if (i >= s.length()) throw bad("unexpected end");
            char c = s.charAt(i);
            if (c == '{') return object();
            if (c == '[') return array();
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            return number();
        }
        private Map<String, Object> object() {
            Map<String, Object> m = new HashMap<>();
            i++;
            space();
            if (i < s.length() && s.charAt(i) == '}') { i++; return m; }
            while (true) {
                space();
                if (i >= s.length() || s.charAt(i) != '"') throw bad("expected a key");
                String k = string();
                if (m.containsKey(k)) throw bad("the key \"" + k + "\" given twice");
                space();
                if (i >= s.length() || s.charAt(i) != ':') throw bad("expected ':'");
                i++;
                space();
                m.put(k, value());
                space();
                if (i >= s.length()) throw bad("unexpected end");
                char c = s.charAt(i++);
                if (c == '}') return m;
                if (c != ',') throw bad("expected ',' or '}'");
            }
        }
        private List<Object> array() {
            List<Object> out = new ArrayList<>();
            i++;
            space();
            if (i < s.length() && s.charAt(i) == ']') { i++; return out; }
            while (true) {
                space();
                out.add(value());
                space();
                if (i >= s.length()) throw bad("unexpected end");
                char c = s.charAt(i++);
                if (c == ']') return out;
                if (c != ',') throw bad("expected ',' or ']'");
            }
        }
        private String string() {
            StringBuilder b = new StringBuilder();
            i++;
            while (true) {
                if (i >= s.length()) throw bad("unterminated string");
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c < 0x20) throw bad("a control character in a string");
                if (c != '\\') { b.append(c); continue; }
                if (i >= s.length()) throw bad("unterminated string");
                char e = s.charAt(i++);
                switch (e) {
                    case '"': b.append('"'); break;
                    case '\\': b.append('\\'); break;
                    case '/': b.append('/'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u':
                        if (i + 4 > s.length()) throw bad("a short \\u escape");
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: throw bad("an unknown escape \\" + e);
                }
            }
        }
        private Object number() {
            int start = i;
            if (i < s.length() && s.charAt(i) == '-') i++;
            while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
            boolean whole = true;
            if (i < s.length() && s.charAt(i) == '.') {
                whole = false;
                i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
            }
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                whole = false;
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
            }
            String t = s.substring(start, i);
            if (t.isEmpty() || t.equals("-")) throw bad("not a value");
            if (whole) {
                try { return Long.parseLong(t); } catch (NumberFormatException e) { /* big */ }
            }
            double d = Double.parseDouble(t);
            if (Double.isInfinite(d)) throw bad("a number too large");
            return d;
        }

        static void write(StringBuilder b, Object v) {
            if (v == null) { b.append("null"); return; }
            if (v instanceof String) { quote(b, (String) v); return; }
            if (v instanceof Boolean || v instanceof Long || v instanceof Integer) {
                b.append(v);
                return;
            }
            if (v instanceof Map) {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    if (!first) b.append(',');
                    first = false;
                    quote(b, (String) e.getKey());
                    b.append(':');
                    write(b, e.getValue());
                }
                b.append('}');
                return;
            }
            if (v instanceof List) {
                b.append('[');
                boolean first = true;
                for (Object o : (List<?>) v) {
                    if (!first) b.append(',');
                    first = false;
                    write(b, o);
                }
                b.append(']');
                return;
            }
            throw new IllegalStateException("cannot write " + v.getClass());
        }
        static void quote(StringBuilder b, String t) {
            b.append('"');
            for (char c : t.toCharArray()) {
                if (c == '"' || c == '\\') b.append('\\').append(c);
                else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
                else b.append(c);
            }
            b.append('"');
        }
    }

    // ---- reading what a request carries ----------------------------------------------

    @SuppressWarnings("unchecked")
    static Map<String, Object> obj(Object v, String what) {
        if (!(v instanceof Map)) throw new Failure("bad-request", what + " is not an object");
        return (Map<String, Object>) v;
    }
    @SuppressWarnings("unchecked")
    static List<Object> list(Object v, String what) {
        if (!(v instanceof List)) throw new Failure("bad-request", what + " is not a list");
        return (List<Object>) v;
    }
    static int integer(Object v, String what) {
        if (!(v instanceof Long)) throw new Failure("bad-request", what + " is not an integer");
        long x = (Long) v;
        if (x < Integer.MIN_VALUE || x > Integer.MAX_VALUE)
            throw new Failure("bad-request", what + " is out of range");
        return (int) x;
    }

    // ---- tiles: "low-high" strings inside ---------------------------------------------

    static int[] ends(String t) {
        int dash = t.indexOf('-');
        return new int[] {Integer.parseInt(t.substring(0, dash)),
                          Integer.parseInt(t.substring(dash + 1))};
    }
    /** A tile as "low-high", or null when the text is not a tile at all. */
    static String norm(Object v) {
        if (!(v instanceof String)) return null;
        String t = (String) v;
        if (!t.matches("\\d{1,3}-\\d{1,3}")) return null;
        int[] e = ends(t);
        return Math.min(e[0], e[1]) + "-" + Math.max(e[0], e[1]);
    }
    static String tileOf(Object v) {
        String t = norm(v);
        if (t == null) throw new Failure("bad-request", "not a tile: " + v);
        int[] e = ends(t);
        if (e[1] > TOP) throw new Failure("unsupported", "tanker plays double-" + TOP + " only, not " + v);
        return t;
    }
    static String wireTile(String t) {  // high end first, as the app's tiles print
        int[] e = ends(t);
        return e[1] + "-" + e[0];
    }
    static boolean isDouble(String t) { int[] e = ends(t); return e[0] == e[1]; }
    static int pips(String t) { int[] e = ends(t); return e[0] + e[1]; }  // SCORE-1

    // ---- the state ---------------------------------------------------------------------

    static final class Train {
        List<String> tiles = new ArrayList<>();  // as laid, near end first
        int end;
        boolean marker;
    }

    static final class State {
        int round, engine, seat, starter, passes, n;
        boolean enginePlaced;
        String phase;
        List<List<String>> hands = new ArrayList<>();
        List<String> boneyard = new ArrayList<>();
        List<Train> trains = new ArrayList<>();
        Train mexican = new Train();
        List<Integer> openDoubles = new ArrayList<>();
        List<Integer> turnDoubles = new ArrayList<>();
        String drawn;
        List<Integer> firstTurns = new ArrayList<>();
        List<Integer> scores = new ArrayList<>();
        List<Integer> outs = new ArrayList<>();
        Map<String, Object> result;

        Train train(int ref) { return ref == MEXICAN ? mexican : trains.get(ref); }
    }

    static int refOf(Object v, String what) {
        if ("mexican".equals(v)) return MEXICAN;
        return integer(v, what);
    }

    static State readState(Object v) {
        Map<String, Object> m = obj(v, "state");
        State st = new State();
        st.phase = String.valueOf(m.get("phase"));
        if (st.phase.equals("engine") || st.phase.equals("chain"))
            throw new Failure("unsupported", "tanker has no phase " + st.phase
                              + ": the engine is set aside and every turn is one tile");
        List<Object> hands = list(m.get("hands"), "state.hands");
        st.n = hands.size();
        if (!HAND.containsKey(st.n))
            throw new Failure("refused-setup", "tanker deals to 2 to 8 players, not " + st.n,
                              "DEAL-7");
        st.round = integer(m.get("round"), "state.round");
        st.engine = integer(m.get("engine"), "state.engine");
        st.enginePlaced = Boolean.TRUE.equals(m.get("engine_placed"));
        st.seat = integer(m.get("seat"), "state.seat");
        st.starter = integer(m.get("starter"), "state.starter");
        st.passes = integer(m.get("passes"), "state.passes");
        for (Object h : hands) {
            List<String> hand = new ArrayList<>();
            for (Object t : list(h, "a hand")) hand.add(tileOf(t));
            st.hands.add(hand);
        }
        for (Object t : list(m.get("boneyard"), "state.boneyard")) st.boneyard.add(tileOf(t));
        for (Object t : list(m.get("trains"), "state.trains")) {
            Map<String, Object> tm = obj(t, "a train");
            Train tr = new Train();
            for (Object x : list(tm.get("tiles"), "a train's tiles")) tr.tiles.add((String) x);
            tr.end = integer(tm.get("end"), "a train's end");
            tr.marker = Boolean.TRUE.equals(tm.get("marker"));
            st.trains.add(tr);
        }
        Map<String, Object> mm = obj(m.get("mexican"), "state.mexican");
        for (Object x : list(mm.get("tiles"), "the Mexican Train's tiles")) st.mexican.tiles.add((String) x);
        st.mexican.end = integer(mm.get("end"), "the Mexican Train's end");
        for (Object x : list(m.get("open_doubles"), "open_doubles")) st.openDoubles.add(refOf(x, "open_doubles"));
        for (Object x : list(m.get("turn_doubles"), "turn_doubles")) st.turnDoubles.add(refOf(x, "turn_doubles"));
        st.drawn = m.get("drawn") == null ? null : tileOf(m.get("drawn"));
        for (Object x : list(m.get("first_turns"), "first_turns")) st.firstTurns.add(integer(x, "first_turns"));
        for (Object x : list(m.get("scores"), "scores")) st.scores.add(integer(x, "scores"));
        for (Object x : list(m.get("outs"), "outs")) st.outs.add(integer(x, "outs"));
        if (m.get("result") != null) st.result = obj(m.get("result"), "state.result");
        return st;
    }

    static Object wireRef(int ref) { return ref == MEXICAN ? "mexican" : (Object) (long) ref; }

    static List<Object> longs(List<Integer> xs) {
        List<Object> out = new ArrayList<>();
        for (Integer x : xs) out.add((long) x);
        return out;
    }

    static Map<String, Object> wireState(State st) {
        Map<String, Object> w = new HashMap<>();
        w.put("round", (long) st.round);
        w.put("engine", (long) st.engine);
        w.put("engine_placed", st.enginePlaced);
        w.put("phase", st.phase);
        w.put("seat", (long) st.seat);
        w.put("starter", (long) st.starter);
        List<Object> hands = new ArrayList<>();
        for (List<String> h : st.hands) {
            List<Object> hand = new ArrayList<>();
            for (String t : h) hand.add(wireTile(t));
            hands.add(hand);
        }
        w.put("hands", hands);
        List<Object> bone = new ArrayList<>();
        for (String t : st.boneyard) bone.add(wireTile(t));
        w.put("boneyard", bone);
        List<Object> trains = new ArrayList<>();
        for (Train tr : st.trains) {
            Map<String, Object> tm = new HashMap<>();
            tm.put("tiles", new ArrayList<Object>(tr.tiles));
            tm.put("end", (long) tr.end);
            tm.put("marker", tr.marker);
            trains.add(tm);
        }
        w.put("trains", trains);
        Map<String, Object> mex = new HashMap<>();
        mex.put("tiles", new ArrayList<Object>(st.mexican.tiles));
        mex.put("end", (long) st.mexican.end);
        w.put("mexican", mex);
        List<Object> open = new ArrayList<>();
        for (int r : st.openDoubles) open.add(wireRef(r));
        w.put("open_doubles", open);
        List<Object> turn = new ArrayList<>();
        for (int r : st.turnDoubles) turn.add(wireRef(r));
        w.put("turn_doubles", turn);
        w.put("drawn", st.drawn == null ? null : wireTile(st.drawn));
        w.put("first_turns", longs(st.firstTurns));
        w.put("passes", (long) st.passes);
        w.put("scores", longs(st.scores));
        w.put("outs", longs(st.outs));
        w.put("result", st.result);
        return w;
    }

    // ---- the rules -------------------------------------------------------------------

    /** Trains the mover may use in an ordinary turn: their own, the Mexican Train, and
     *  each other train that carries its owner's marker (TRAIN-4, MARK-1). */
    static List<Integer> usableTrains(State st) {
        List<Integer> refs = new ArrayList<>();
        refs.add(st.seat);
        refs.add(MEXICAN);
        for (int i = 0; i < st.n; i++)
            if (i != st.seat && st.trains.get(i).marker) refs.add(i);
        return refs;
    }

    /** The oldest open double of an earlier turn, which binds the mover (DBL-6, DBL-7,
     *  DBL-10), or null. */
    static Integer dueDouble(State st) {
        for (Integer d : st.openDoubles)
            if (!st.turnDoubles.contains(d)) return d;
        return null;
    }

    static boolean homeEmpty(State st) { return st.trains.get(st.seat).tiles.isEmpty(); }

    /** Whether tile t may go on train ref now: the cover duty first (DBL-6), then the
     *  follow-up (DBL-2: anywhere the player may play, the double included), then house
     *  rule "home first, doubles excepted". */
    static boolean mayPlay(State st, String t, int ref) {
        if (!matches(t, st.train(ref).end)) return false;  // TRAIN-2
        Integer due = dueDouble(st);
        if (due != null) return ref == due;  // DBL-6, DBL-7: cover it, nothing else
        boolean turnDouble = st.phase.equals("follow") && st.turnDoubles.contains(ref);
        if (!turnDouble && !usableTrains(st).contains(ref)) return false;  // TRAIN-4
        // house rule "home first, doubles excepted": an empty own train takes every tile
        // but a double, which may go anywhere else the player may play
        if (homeEmpty(st) && ref != st.seat && !isDouble(t) && !turnDouble) return false;
        return true;
    }

    static boolean matches(String t, int end) {
        int[] e = ends(t);
        return e[0] == end || e[1] == end;  // TRAIN-2
    }

    static List<Map<String, Object>> plays(State st) {
        List<String> tiles = st.drawn != null ? List.of(st.drawn) : st.hands.get(st.seat);  // TURN-3
        List<Map<String, Object>> out = new ArrayList<>();
        List<Integer> refs = new ArrayList<>(usableTrains(st));
        for (int ref : st.openDoubles) if (!refs.contains(ref)) refs.add(ref);
        for (int ref : refs)
            for (String t : tiles)
                if (mayPlay(st, t, ref)) out.add(play(t, ref));
        return out;
    }

    static Map<String, Object> play(String t, int ref) {
        Map<String, Object> a = new HashMap<>();
        a.put("type", "play");
        a.put("tile", wireTile(t));
        a.put("train", wireRef(ref));
        return a;
    }

    static Map<String, Object> simple(String type) {
        Map<String, Object> a = new HashMap<>();
        a.put("type", type);
        return a;
    }

    static List<Map<String, Object>> legal(State st) {
        if (st.phase.equals("over")) return List.of();  // END-1
        List<Map<String, Object>> p = plays(st);
        if (!p.isEmpty()) return p;  // TURN-1
        if (st.boneyard.isEmpty() || st.drawn != null) return List.of(simple("pass"));  // TURN-4, TURN-2
        return List.of(simple("draw"));  // TURN-2
    }

    static void endTurn(State st) {
        st.firstTurns.remove(Integer.valueOf(st.seat));  // FIRST-6
        st.seat = (st.seat + 1) % st.n;  // SEAT-1
        st.phase = "start";
        st.drawn = null;
        st.turnDoubles.clear();
    }

    static List<Integer> roundScores(State st, Integer winner) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < st.n; i++) {
            int v = 0;
            for (String t : st.hands.get(i)) v += pips(t);
            boolean looksEmpty = !st.hands.get(i).isEmpty();
            for (String t : st.hands.get(i)) if (ends(t)[0] != 0) looksEmpty = false;
            if (looksEmpty && bugs.contains("blank-hand")) v = 0;  // bug 1
            out.add(winner != null && winner == i ? 0 : v);  // SCORE-5, SCORE-1
        }
        return out;
    }

    static void finish(State st, String end, Integer winner) {
        List<Integer> sc = roundScores(st, winner);
        st.phase = "over";
        st.drawn = null;
        st.turnDoubles.clear();
        for (int i = 0; i < st.n; i++) st.scores.set(i, st.scores.get(i) + sc.get(i));  // MATCH-1
        if (winner != null) st.outs.set(winner, st.outs.get(winner) + 1);
        Map<String, Object> res = new HashMap<>();
        res.put("end", end);
        res.put("winner", winner == null ? null : (Object) (long) winner);
        res.put("scores", longs(sc));
        st.result = res;
    }

    static Map<String, Object> refused(String reason, String clause) {
        Map<String, Object> r = new HashMap<>();
        r.put("reason", reason);
        r.put("clause", clause);
        return r;
    }

    /** Why the action is refused, or null when it is legal. */
    static Map<String, Object> refusal(State st, Map<String, Object> action) {
        if (st.phase.equals("over")) return refused("the round is over", "END-1");
        String kind = (String) action.get("type");
        boolean canPlay = !plays(st).isEmpty();
        switch (kind) {
            case "end-chain":
                return refused("every turn is one tile: there is no chain to end", "FIRST-7");
            case "draw":
                if (canPlay) return refused("a tile can be played", "TURN-1");
                if (st.boneyard.isEmpty()) return refused("the boneyard is empty", "TURN-4");
                if (st.drawn != null) return refused("one draw a turn", "TURN-2");
                return null;
            case "pass":
                if (canPlay) return refused("a tile can be played", "TURN-1");
                if (!st.boneyard.isEmpty() && st.drawn == null) return refused("draw first", "TURN-2");
                return null;
            default:
                break;
        }
        String t = norm(action.get("tile"));
        if (t == null || !st.hands.get(st.seat).contains(t))
            return refused("seat " + st.seat + " does not hold " + action.get("tile"), "TURN-7");
        Object rv = action.get("train");
        int ref;
        if ("mexican".equals(rv)) ref = MEXICAN;
        else if (rv instanceof Long && (Long) rv >= 0 && (Long) rv < st.n) ref = (int) (long) (Long) rv;
        else return refused("there is no train " + rv, "TRAIN-1");
        int end = st.train(ref).end;
        if (!matches(t, end)) return refused(wireTile(t) + " does not match the open end " + end, "TRAIN-2");
        if (st.drawn != null && !st.drawn.equals(t))
            return refused("only the drawn " + wireTile(st.drawn) + " may be played", "TURN-3");
        if (mayPlay(st, t, ref)) return null;
        boolean others = ref != MEXICAN && ref != st.seat && !st.trains.get(ref).marker;
        // a train ending in an open double is open to all (TRAIN-6): the double refuses it
        if (others && !st.openDoubles.contains(ref))
            return refused("seat " + ref + "'s train carries no marker", "TRAIN-4");
        Integer due = dueDouble(st);
        if (due != null) {
            if (st.openDoubles.contains(ref)) return refused("the oldest open double comes first", "DBL-7");
            return refused("an open double must be covered first", "DBL-6");
        }
        if (others) return refused("seat " + ref + "'s train carries no marker", "TRAIN-4");
        // house rule "home first, doubles excepted"
        return refused("start your own train first (a double may go elsewhere)", "TRAIN-7");
    }

    static Map<String, Object> apply(State st, Object actionValue) {
        Map<String, Object> action = obj(actionValue, "action");
        Object kindValue = action.get("type");
        List<String> fields;
        if ("play".equals(kindValue)) fields = List.of("type", "tile", "train");
        else if ("draw".equals(kindValue) || "pass".equals(kindValue) || "end-chain".equals(kindValue))
            fields = List.of("type");
        else throw new Failure("bad-request", "not an action: type " + kindValue);
        for (String k : action.keySet())
            if (!fields.contains(k)) throw new Failure("bad-request", kindValue + " has no field " + k);
        Map<String, Object> why = refusal(st, action);
        Map<String, Object> out = new HashMap<>();
        if (why != null) {
            out.put("refused", why);
            return out;
        }
        int seat = st.seat;
        String kind = (String) kindValue;
        if (kind.equals("draw")) {
            String tile = st.boneyard.remove(0);  // TURN-2: from the front
            st.hands.get(seat).add(tile);
            st.drawn = tile;
        } else if (kind.equals("pass")) {
            boolean following = st.phase.equals("follow");
            boolean wasFirst = st.firstTurns.contains(seat);
            st.trains.get(seat).marker = true;  // TURN-4, MARK-1, DBL-5
            if (st.boneyard.isEmpty()) st.passes += 1;  // END-3 counts these
            endTurn(st);
            // bug 3: the follow-up's pass moves the seat on but keeps the first turn
            if (following && wasFirst && bugs.contains("first-pass")) {
                st.firstTurns.add(seat);
                java.util.Collections.sort(st.firstTurns);
            }
            if (st.passes >= st.n) finish(st, "blocked", null);  // END-3
        } else {
            String t = norm(action.get("tile"));
            int ref = refOf(action.get("train"), "action.train");
            Train tr = st.train(ref);
            int[] e = ends(t);
            int far = e[0] == tr.end ? e[1] : e[0];
            tr.tiles.add(tr.end + "-" + far);  // near end first (TRAIN-2)
            tr.end = far;
            // house rule "home or a double": home, or a double laid anywhere
            if (ref == seat || isDouble(t)) st.trains.get(seat).marker = false;
            st.hands.get(seat).remove(t);
            st.drawn = null;
            // bug 2: the count goes back to 0 only for a tile that ends the turn
            if (!(isDouble(t) && bugs.contains("double-keeps-count"))) st.passes = 0;  // END-3
            st.openDoubles.remove(Integer.valueOf(ref));  // TRAIN-3: covered
            st.turnDoubles.remove(Integer.valueOf(ref));
            if (isDouble(t)) st.openDoubles.add(ref);  // DBL-1
            if (st.hands.get(seat).isEmpty()) {
                finish(st, "domino", seat);  // END-1: a last double needs no cover
            } else if (isDouble(t)) {
                st.turnDoubles.add(ref);
                st.phase = "follow";  // DBL-1
            } else {
                endTurn(st);  // TURN-6
            }
        }
        out.put("state", wireState(st));
        return out;
    }

    static State deal(Map<String, Object> req) {
        Object pv = req.get("players");
        if (!(pv instanceof Long) || !HAND.containsKey((int) (long) (Long) pv))
            throw new Failure("refused-setup", "tanker deals to 2 to 8 players, not " + pv, "DEAL-7");
        int n = (int) (long) (Long) pv;
        Object rv = req.get("round");
        if (!(rv instanceof Long) || (Long) rv < 1 || (Long) rv > ROUNDS)
            throw new Failure("refused-setup", "a double-" + TOP + " match has rounds 1 to " + ROUNDS + ", not " + rv,
                              "MATCH-1");
        int round = (int) (long) (Long) rv;
        List<String> order = new ArrayList<>();
        for (Object t : list(req.get("order"), "order")) order.add(tileOf(t));
        int want = (TOP + 1) * (TOP + 2) / 2 - 1;
        if (order.size() != want)
            throw new Failure("unsupported", "tanker deals a double-" + TOP + " set without the engine: "
                              + want + " tiles, got " + order.size());
        State st = new State();
        st.n = n;
        st.round = round;
        st.engine = TOP - (round - 1);  // ENG-1
        st.enginePlaced = true;  // ENG-2
        st.phase = "start";
        int size = HAND.get(n);
        for (int s = 0; s < n; s++) st.hands.add(new ArrayList<>(order.subList(s * size, (s + 1) * size)));
        // house rule "low double leads": the lowest double dealt; none, the start rotates
        st.starter = (round - 1) % n;
        int low = Integer.MAX_VALUE;
        for (int s = 0; s < n; s++)
            for (String t : st.hands.get(s))
                if (isDouble(t) && pips(t) < low) { low = pips(t); st.starter = s; }
        st.seat = st.starter;
        st.boneyard.addAll(order.subList(n * size, order.size()));
        for (int s = 0; s < n; s++) {
            Train tr = new Train();
            tr.end = st.engine;
            st.trains.add(tr);
            st.firstTurns.add(s);
            st.scores.add(0);
            st.outs.add(0);
        }
        st.mexican.end = st.engine;
        return st;
    }

    static List<Integer> scoreRequest(Map<String, Object> req) {
        State st = readState(req.get("state"));
        Integer winner;
        if (req.containsKey("winner")) {
            winner = req.get("winner") == null ? null : integer(req.get("winner"), "winner");
        } else {
            if (!st.phase.equals("over"))
                throw new Failure("bad-request", "no winner given and the round is not over");
            Object w = st.result == null ? null : st.result.get("winner");
            winner = w == null ? null : integer(w, "result.winner");
        }
        if (winner != null && (winner < 0 || winner >= st.n || !st.hands.get(winner).isEmpty()))
            throw new Failure("bad-request", "seat " + winner + " has not gone out");
        return roundScores(st, winner);
    }

    static List<Integer> winners(State st) {
        List<Integer> out = new ArrayList<>();
        if (!st.phase.equals("over") || st.round < ROUNDS) return out;  // MATCH-1
        int best = Integer.MAX_VALUE;
        for (Integer s : st.scores) best = Math.min(best, s);  // MATCH-2: lowest total
        Integer low = best;
        for (int i = 0; i < st.n; i++) {
            if (st.scores.get(i).equals(low)) out.add(i);  // MATCH-4: shared
        }
        return out;
    }

    static Map<String, Object> rulesDeclared() {
        Map<String, Object> opts = new HashMap<>();
        String[][] pairs = {
            {"tile_set", "double-" + TOP}, {"hand_sizes", "custom"}, {"engine_procedure", "set-aside"},
            {"starting_seat", "other"}, {"first_turn", "single"}, {"mexican_first_turn", "anyone"},
            {"own_train_first", "required"}, {"doubles", "open"}, {"follow_up", "anywhere"},
            {"double_order", "oldest-first"}, {"uncoverable_double", "stays-open"},
            {"marker_removal", "other"}, {"draw_rule", "draw-one"},
            {"blocked_round", "full-round-of-passes"}, {"scoring", "penalty"},
            {"blank_values", "face"}, {"tie_rule", "shared"}, {"match_length", "full"},
        };
        for (String[] p : pairs) opts.put(p[0], p[1]);
        Map<String, Object> sizes = new HashMap<>();
        for (Map.Entry<Integer, Integer> e : HAND.entrySet()) sizes.put(String.valueOf(e.getKey()), (long) e.getValue());
        Map<String, Object> rules = new HashMap<>();
        rules.put("name", "tanker");
        rules.put("options", opts);
        rules.put("hand_sizes", sizes);
        return rules;
    }

    static Map<String, Object> handle(Map<String, Object> req) {
        Object type = req.get("type");
        Map<String, Object> out = new HashMap<>();
        if ("hello".equals(type)) {
            Object p = req.get("protocol");
            if (!(p instanceof Long) || (Long) p != 1L) {
                Failure f = new Failure("protocol-version", "tanker speaks protocol 1, not " + p);
                throw f;
            }
            out.put("protocol", 1L);
            out.put("name", "tanker");
            out.put("version", bugs.isEmpty() ? "3.1.0" : "3.1.0-debug");
            out.put("rules", rulesDeclared());
        } else if ("deal".equals(type)) {
            out.put("state", wireState(deal(req)));
        } else if ("legal".equals(type)) {
            out.put("actions", new ArrayList<Object>(legal(readState(req.get("state")))));
        } else if ("apply".equals(type)) {
            out.putAll(apply(readState(req.get("state")), req.get("action")));
        } else if ("score".equals(type)) {
            out.put("scores", longs(scoreRequest(req)));
        } else if ("winners".equals(type)) {
            out.put("winners", longs(winners(readState(req.get("state")))));
        } else if (!"shutdown".equals(type)) {
            throw new Failure("bad-request", "unknown request type " + type);
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        for (String a : args) {
            if (a.equals("--fixed")) bugs.clear();
            else if (a.equals("--bugs")) bugs.addAll(List.of(BUG_NAMES));
            else if (a.startsWith("--bug=")) {
                String name = a.substring(6);
                if (!List.of(BUG_NAMES).contains(name)) {
                    System.err.println("tanker: no bug " + name + "; the bugs: " + String.join(", ", BUG_NAMES));
                    System.exit(2);
                }
                bugs.clear();
                bugs.add(name);
            } else if (a.startsWith("--set=")) {
                int top = Integer.parseInt(a.substring(6));
                if (top < 6 || top > 18) {
                    System.err.println("tanker: --set takes 6 to 18, not " + top);
                    System.exit(2);
                }
                TOP = top;
                ROUNDS = TOP + 1;
            } else {
                System.err.println("tanker: unknown argument " + a);
                System.exit(2);
            }
        }
        System.err.println("tanker 3.1.0 (double-" + TOP + ") on Java " + System.getProperty("java.version")
                           + " ready, bugs: " + (bugs.isEmpty() ? "none" : String.join(",", bugs)));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("\uFEFF")) line = line.substring(1);
            if (line.isBlank()) continue;
            Map<String, Object> answer = new LinkedHashMap<>();
            Object id = null;
            boolean shutdown = false;
            try {
                Object parsed = Json.parse(line);
                Map<String, Object> req = obj(parsed, "a request");
                if (req.get("id") instanceof Long) id = req.get("id");
                shutdown = "shutdown".equals(req.get("type"));
                Map<String, Object> fields = handle(req);
                answer.put("id", id);
                answer.put("ok", true);
                answer.putAll(fields);
            } catch (Failure f) {
                answer.put("id", id);
                answer.put("ok", false);
                Map<String, Object> err = new HashMap<>();
                err.put("kind", f.kind);
                err.put("message", f.getMessage());
                if (f.kind.equals("refused-setup")) err.put("clause", f.clause);
                if (f.kind.equals("protocol-version")) err.put("supported", List.of(1L));
                answer.put("error", err);
            } catch (IllegalArgumentException e) {
                answer.put("id", id);
                answer.put("ok", false);
                Map<String, Object> err = new HashMap<>();
                err.put("kind", "bad-request");
                err.put("message", "not JSON: " + e.getMessage());
                answer.put("error", err);
            } catch (RuntimeException e) {
                e.printStackTrace();
                answer.put("id", id);
                answer.put("ok", false);
                Map<String, Object> err = new HashMap<>();
                err.put("kind", "internal");
                err.put("message", e.toString());
                answer.put("error", err);
            }
            StringBuilder b = new StringBuilder();
            Json.write(b, answer);
            out.println(b);
            out.flush();
            if (shutdown) break;
        }
        out.flush();
    }
}
