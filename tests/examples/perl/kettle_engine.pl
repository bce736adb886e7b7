#!/usr/bin/perl
# kettle: a Mexican Train engine in Perl 5 (core modules only: JSON::PP), written from
# shared/RULES.md, docs/implementers-guide.md and docs/protocol.md alone, as an app
# author would; protocol v1 on stdin/stdout, one JSON line each way. (The kettle is what
# the family's Sunday table keeps on the stove between rounds.)
#
# What it plays (kettle-rules.yaml beside it says the same, option by option):
#   - a double-9 set (55 tiles); the engine is set aside before the deal; round r's
#     engine is [10-r, 10-r]: ten rounds, [9-9] down to [0-0];
#   - its own hand sizes, 2 to 6 players: 2 take 12, 3 take 10, 4 take 9, 5 take 8,
#     6 take 7 (any other count is refused, DEAL-7);
#   - after the first turn: one tile a turn, on one's own train, the Mexican Train (anyone
#     may open it) or a marked train; no need to start one's own train first;
#   - a player who cannot play draws one tile, plays it if it fits, else passes and puts
#     up their marker; with an empty boneyard they pass (marker up);
#   - a marker comes off when its owner plays on their own train;
#   - a full round of passes on an empty boneyard blocks the round;
#   - penalty scoring at face value (blanks 0), lowest total wins, equal totals share.
# House rules, none of which a known value describes (the rules file says `other`):
#   - "dealer's left" (starting_seat: other): seat 0 deals round 1 and the deal passes
#     left each round; the player on the dealer's left starts: round r starts at seat
#     r mod n (round 1 at seat 1).
#   - "two to start" (first_turn: other): on a player's first turn of a round they lay
#     one or two tiles on their own train only, the second continuing the first, and may
#     stop after one (end-chain); a double laid on the first turn ends it at once. A
#     player who cannot start their own train on their first turn puts up their marker
#     without drawing (pass), unless a double binds them (below).
#   - "next one covers" (doubles: other, follow_up: other, uncoverable_double: other): a
#     double ends its layer's turn like any tile (no follow-up tile); the NEXT player
#     must cover it, and may play nothing else (the double's train is open to them,
#     marked or not, even on their first turn). If they cannot, they draw one tile and
#     cover with it if it fits; otherwise they pass, put up their marker, and the double
#     becomes an ordinary end that binds nobody. So at most one double is open at a time.
#     A double laid as one's last tile ends the round and needs no cover.
#
# Planted bugs (kettle-bugs.md beside it lists them): on unless --fixed is given (or the
# environment says KETTLE_FIXED=1).
use strict;
use warnings;
use JSON::PP;

my $FIXED = (grep { $_ eq '--fixed' } @ARGV) || ($ENV{KETTLE_FIXED} // '') eq '1';
my %BUG = map { $_ => !$FIXED } qw(double_once marked_pass drawn_home);

my %HANDS = (2 => 12, 3 => 10, 4 => 9, 5 => 8, 6 => 7);
my $TOP = 9;  # double-9
my $ROUNDS = $TOP + 1;

my $JSON = JSON::PP->new->canonical(1)->allow_nonref(1);
$| = 1;

sub T { JSON::PP::true }
sub F { JSON::PP::false }

sub ends { my ($t) = @_; my ($a, $b) = split /-/, $t; return ($a + 0, $b + 0); }
sub norm { my ($t) = @_; my ($a, $b) = ends($t); return $a >= $b ? "$a-$b" : "$b-$a"; }
sub is_double { my ($a, $b) = ends($_[0]); return $a == $b; }

sub value {  # a tile's pips (blanks worth 0)
    my ($a, $b) = ends($_[0]);
    return $a if $BUG{double_once} && $a == $b;
    return $a + $b;
}

sub hand_sort {
    return sort { my @x = ends($a); my @y = ends($b); $y[0] <=> $x[0] || $y[1] <=> $x[1] }
        map { norm($_) } @_;
}

sub penalty { my ($st) = @_; return [map { my $s = 0; $s += value($_) for @$_; $s + 0 } @{$st->{hands}}]; }

sub setup_error {
    my ($n) = @_;
    return { kind => 'refused-setup', clause => 'DEAL-7',
             message => "kettle deals to 2 to 6 players, not $n" };
}

sub deal {
    my ($req) = @_;
    my $n = $req->{players};
    my $r = $req->{round};
    die { kind => 'bad-request', message => 'players must be an integer' } unless defined $n && $n =~ /^\d+$/;
    die setup_error($n) unless $HANDS{$n};
    die { kind => 'refused-setup', clause => 'MATCH-1', message => "kettle's match has rounds 1 to $ROUNDS, not $r" }
        unless defined $r && $r =~ /^\d+$/ && $r >= 1 && $r <= $ROUNDS;
    my @pool = @{$req->{order} || []};
    my $k = $HANDS{$n};
    die { kind => 'bad-request', message => "the pool holds " . scalar(@pool) . " tiles, too few for $n hands of $k" }
        if @pool < $n * $k;
    my $engine = $TOP - ($r - 1);
    my @hands;
    for my $s (0 .. $n - 1) { push @hands, [hand_sort(splice(@pool, 0, $k))]; }
    my $start = $r % $n;  # dealer's left
    return {
        round => $r + 0, engine => $engine + 0, engine_placed => T, phase => 'start',
        seat => $start + 0, starter => $start + 0, hands => \@hands,
        boneyard => [map { norm($_) } @pool],
        trains => [map { { tiles => [], end => $engine + 0, marker => F } } 1 .. $n],
        mexican => { tiles => [], end => $engine + 0 },
        open_doubles => [], turn_doubles => [], drawn => undef,
        first_turns => [0 .. $n - 1], passes => 0, scores => [(0) x $n], outs => [(0) x $n],
        result => undef,
    };
}

sub check_state {
    my ($st) = @_;
    die { kind => 'bad-request', message => 'no state' } unless ref $st eq 'HASH';
    my $n = scalar @{$st->{hands} || []};
    die setup_error($n) unless $HANDS{$n};
    die { kind => 'unsupported', message => "kettle never places the engine by drawing: no '$st->{phase}' phase" }
        if $st->{phase} eq 'engine';
    die { kind => 'unsupported', message => "kettle's doubles end the turn: no follow phase" }
        if $st->{phase} eq 'follow';
    return $n;
}

sub in_first { my ($st, $s) = @_; return scalar grep { $_ == $s } @{$st->{first_turns}}; }

sub train_of { my ($st, $t) = @_; return $t eq 'mexican' ? $st->{mexican} : $st->{trains}[$t]; }

sub fits { my ($tile, $end) = @_; my ($a, $b) = ends($tile); return $a == $end || $b == $end; }

# The trains the player to act may lay a given tile on.
sub trains_for {
    my ($st, $drawn_tile) = @_;
    my $s = $st->{seat};
    my $n = scalar @{$st->{trains}};
    if (@{$st->{open_doubles}}) { return ($st->{open_doubles}[0]); }  # next one covers
    if ($st->{phase} eq 'chain' || in_first($st, $s)) { return ($s); }  # two to start: own only
    return ($s) if $drawn_tile && $BUG{drawn_home};
    my @t = ($s, 'mexican');
    for my $o (0 .. $n - 1) { push @t, $o if $o != $s && $st->{trains}[$o]{marker}; }
    return @t;
}

sub plays {
    my ($st) = @_;
    my $s = $st->{seat};
    my @tiles = defined $st->{drawn} ? (norm($st->{drawn})) : map { norm($_) } @{$st->{hands}[$s]};
    my @out;
    for my $t (trains_for($st, defined $st->{drawn})) {
        my $end = train_of($st, $t)->{end};
        for my $tile (@tiles) { push @out, { type => 'play', tile => $tile, train => $t } if fits($tile, $end); }
    }
    return @out;
}

sub legal {
    my ($st) = @_;
    return () if $st->{phase} eq 'over';
    my @p = plays($st);
    if ($st->{phase} eq 'chain') { return (@p, { type => 'end-chain' }); }
    return @p if @p;
    my $duty = scalar @{$st->{open_doubles}};
    if (!defined $st->{drawn} && @{$st->{boneyard}} && ($duty || !in_first($st, $st->{seat}))) {
        return ({ type => 'draw' });
    }
    return ({ type => 'pass' });
}

sub same_action {
    my ($x, $y) = @_;
    return 0 unless $x->{type} eq $y->{type};
    return 1 unless $x->{type} eq 'play';
    return norm($x->{tile}) eq norm($y->{tile}) && "$x->{train}" eq "$y->{train}";
}

sub refusal {
    my ($st, $act) = @_;
    my $s = $st->{seat};
    return ('the round is over', 'END-1') if $st->{phase} eq 'over';
    my $type = $act->{type} // '';
    if ($type eq 'play') {
        my $tile = norm($act->{tile});
        my ($a, $b) = ends($tile);
        return ("$tile is not a tile of the double-9 set", 'SET-1') if $a > $TOP;
        return ("you do not hold $tile", 'TURN-7') unless grep { norm($_) eq $tile } @{$st->{hands}[$s]};
        my $t = $act->{train};
        my $n = scalar @{$st->{trains}};
        return ("there is no train $t", 'TRAIN-1') unless $t eq 'mexican' || ($t =~ /^\d+$/ && $t < $n);
        return ("after drawing only the drawn tile may be laid", 'TURN-3')
            if defined $st->{drawn} && norm($st->{drawn}) ne $tile;
        return ("$tile does not match the open end of train $t", 'TRAIN-2') unless fits($tile, train_of($st, $t)->{end});
        if (@{$st->{open_doubles}}) {
            return ("the double on train $st->{open_doubles}[0] must be covered first", 'DBL-6')
                unless "$t" eq "$st->{open_doubles}[0]";
        } elsif ($st->{phase} eq 'chain' || in_first($st, $s)) {
            return ("a first turn is laid on your own train", 'FIRST-2') unless "$t" eq "$s";
        } elsif ("$t" ne 'mexican' && $t != $s && !$st->{trains}[$t]{marker}) {
            return ("train $t carries no marker", 'TRAIN-4');
        }
        return ();
    }
    my @p = plays($st);
    if ($type eq 'end-chain') {
        return ('there is no chain to end', 'FIRST-7') unless $st->{phase} eq 'chain';
        return ();
    }
    if ($type eq 'draw') {
        return ('you can play a tile', 'TURN-1') if @p;
        return ('you may not draw during your first turn', 'FIRST-3') if $st->{phase} eq 'chain';
        return ('you have drawn already this turn', 'TURN-2') if defined $st->{drawn};
        return ('the boneyard is empty', 'TURN-4') unless @{$st->{boneyard}};
        return ('you may not draw on your first turn', 'FIRST-3')
            if in_first($st, $s) && !@{$st->{open_doubles}};
        return ();
    }
    if ($type eq 'pass') {
        return ('you are laying your first turn', 'FIRST-1') if $st->{phase} eq 'chain';
        return ('you can play a tile', 'TURN-1') if @p;
        return ('draw a tile first', 'TURN-2')
            if !defined $st->{drawn} && @{$st->{boneyard}} && (@{$st->{open_doubles}} || !in_first($st, $s));
        return ();
    }
    return ("unknown action '$type'", 'TURN-7');
}

sub end_turn {
    my ($st) = @_;
    my $s = $st->{seat};
    my $n = scalar @{$st->{trains}};
    $st->{first_turns} = [grep { $_ != $s } @{$st->{first_turns}}];
    $st->{drawn} = undef;
    $st->{turn_doubles} = [];
    $st->{phase} = 'start';
    $st->{seat} = ($s + 1) % $n;
}

sub finish {
    my ($st, $winner) = @_;
    my $sc = penalty($st);
    $st->{phase} = 'over';
    $st->{result} = { end => defined $winner ? 'domino' : 'blocked', winner => $winner, scores => $sc };
    $st->{scores} = [map { $st->{scores}[$_] + $sc->[$_] } 0 .. $#$sc];
    $st->{outs}[$winner] += 1 if defined $winner;
}

sub apply_action {
    my ($st, $act) = @_;
    my @why = refusal($st, $act);
    return { refused => { reason => $why[0], clause => $why[1] } } if @why;
    my $s = $st->{seat};
    my $n = scalar @{$st->{trains}};
    my $type = $act->{type};
    if ($type eq 'end-chain') { end_turn($st); return { state => $st }; }
    if ($type eq 'draw') {
        my $tile = shift @{$st->{boneyard}};
        $st->{hands}[$s] = [hand_sort(@{$st->{hands}[$s]}, $tile)];
        $st->{drawn} = norm($tile);
        return { state => $st };
    }
    if ($type eq 'pass') {
        my $was_marked = $st->{trains}[$s]{marker};
        $st->{trains}[$s]{marker} = T;
        $st->{open_doubles} = [];  # next one covers: the double is an ordinary end now
        $st->{passes} += 1 unless @{$st->{boneyard}} || ($BUG{marked_pass} && $was_marked);
        end_turn($st);
        finish($st, undef) if $st->{passes} >= $n;
        return { state => $st };
    }
    # a play
    my $tile = norm($act->{tile});
    my $t = $act->{train};
    $t += 0 unless $t eq 'mexican';
    my $train = train_of($st, $t);
    my ($a, $b) = ends($tile);
    my ($near, $far) = $a == $train->{end} ? ($a, $b) : ($b, $a);
    push @{$train->{tiles}}, "$near-$far";
    $train->{end} = $far + 0;
    my $removed = 0;
    $st->{hands}[$s] = [grep { !(norm($_) eq $tile && !$removed++) } @{$st->{hands}[$s]}];
    $train->{marker} = F if "$t" eq "$s";
    $st->{passes} = 0;
    my $covering = @{$st->{open_doubles}} ? 1 : 0;
    $st->{open_doubles} = [] if $covering;
    push @{$st->{open_doubles}}, $t if $a == $b;
    if (!@{$st->{hands}[$s]}) {
        $st->{first_turns} = [grep { $_ != $s } @{$st->{first_turns}}];
        $st->{drawn} = undef;
        finish($st, $s);
        return { state => $st };
    }
    if ($st->{phase} eq 'start' && in_first($st, $s) && !$covering && $a != $b) {
        $st->{phase} = 'chain';  # two to start: a second tile may follow
        return { state => $st };
    }
    end_turn($st);
    return { state => $st };
}

sub winners {
    my ($st) = @_;
    return [] unless $st->{phase} eq 'over' && $st->{round} >= $ROUNDS;
    my @sc = @{$st->{scores}};
    my $low = (sort { $a <=> $b } @sc)[0];
    return [grep { $sc[$_] == $low } 0 .. $#sc];
}

sub hello {
    return {
        protocol => 1, name => 'kettle', version => '1.0',
        rules => {
            name => 'kettle',
            options => {
                tile_set => 'double-9', hand_sizes => 'custom', engine_procedure => 'set-aside',
                starting_seat => 'other', first_turn => 'other', mexican_first_turn => 'anyone',
                own_train_first => 'not-required', doubles => 'other', follow_up => 'other',
                double_order => 'oldest-first', uncoverable_double => 'other',
                marker_removal => 'owner-plays-own', draw_rule => 'draw-one',
                blocked_round => 'full-round-of-passes', scoring => 'penalty',
                blank_values => 'face', tie_rule => 'shared', match_length => 'full',
            },
            hand_sizes => { map { ("$_" => $HANDS{$_}) } keys %HANDS },
        },
    };
}

sub answer {
    my ($req) = @_;
    my $type = $req->{type} // '';
    return hello() if $type eq 'hello';
    return {} if $type eq 'shutdown';
    return { state => deal($req) } if $type eq 'deal';
    my $st = $req->{state};
    check_state($st);
    return { actions => [legal($st)] } if $type eq 'legal';
    return apply_action($st, $req->{action} || {}) if $type eq 'apply';
    if ($type eq 'score') {
        my $w = exists $req->{winner} ? $req->{winner} : ($st->{result} || {})->{winner};
        die { kind => 'bad-request', message => "seat $w still holds tiles" }
            if defined $w && @{$st->{hands}[$w] || []};
        return { scores => penalty($st) };
    }
    return { winners => winners($st) } if $type eq 'winners';
    die { kind => 'bad-request', message => "unknown request type '$type'" };
}

while (my $line = <STDIN>) {
    $line =~ s/\r?\n\z//;
    next unless $line =~ /\S/;
    my ($req, $id);
    my $out = eval {
        $req = $JSON->decode($line);
        $id = $req->{id};
        my $a = answer($req);
        { id => $id, ok => JSON::PP::true, %$a };
    };
    if (!$out) {
        my $e = $@;
        my $err = ref $e eq 'HASH' ? $e : { kind => 'internal', message => "$e" };
        $err->{message} =~ s/\s+\z// if defined $err->{message};
        $out = { id => $id, ok => JSON::PP::false, error => $err };
    }
    print $JSON->encode($out), "\n";
    last if ($req->{type} // '') eq 'shutdown';
}
