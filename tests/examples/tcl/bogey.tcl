#!/usr/bin/env tclsh
# Bogey: a Mexican Train engine in Tcl 8.6 (its standard library alone: its own JSON
# reader and writer, its own game model), written from docs/protocol.md and the clause
# texts alone, as the rules core of a retirement club's big-table game night put behind a
# stdin/stdout server. (A bogey is the wheeled truck under a long carriage: this engine
# is for the long tables.)
#
# Run:   tclsh bogey.tcl [--fixed | --bugs | --bug=NAME]
#
# WHAT IT PLAYS (its truth; bogey-rules.yaml beside it says the same, option by option,
# and its hello declares the same). It ignores the rule set each request carries:
#   - a double-16 set (153 tiles); round r's engine is [17-r, 17-r] (ENG-1), set aside
#     before the deal (ENG-2);
#   - HOUSE TABLE, 6 to 12 players (the club's tables): 6 take 16, 7 take 15, 8 take 14,
#     9 take 13, 10 take 12, 11 take 11, 12 take 10; any other count is refused (DEAL-7);
#     hands are dealt from the front of the pool, seat 0 first, each whole;
#   - round r starts at seat (r - 1) mod n (SEAT-3); one tile a turn from the start, and
#     anyone may open the Mexican Train (`single`, `anyone`); no own-train-first rule;
#   - doubles are ordinary tiles (DBL-11): a double ends the turn and is never open
#     (follow_up, double_order and uncoverable_double decide nothing: known values named);
#   - a player who cannot play draws one tile (TURN-2) and must play it if it can be
#     played (TURN-3), else passes; a pass puts the marker up (MARK-1), which comes off
#     when its owner plays on their own train (MARK-3);
#   - the round ends when a player lays their last tile (END-1), or blocked after a full
#     round of passes on an empty boneyard (END-3);
#   - penalty scoring, blanks worth 0 (SCORE-1, SCORE-5); the lowest total wins (MATCH-2).
#   House rules no known value describes (the file says `other` for each); they work
#   together, the second reading the round the first makes the last:
#   - "three hundred" (match_length: other): the match ends after the round in which some
#     player's total reaches 300 or more, or after the [0-0] round (round 17), whichever
#     comes first. `full` plays all 17 rounds; `single-round` one.
#   - "last out takes it" (tie_rule: other): of the players level on the lowest total when
#     the match ends, the one who went out in that last round wins alone; if the last
#     round was blocked, or its winner is not among them, they share the win. `shared`
#     shares where this rule gives the last round's winner the match; `most-outs` and
#     `lowest-seat` look at other things.
#
# Wire habits: tiles outside a train are written high end first; a hand in the order
# held (a drawn tile last). A request field it does not know is ignored. Every request is
# answered from its own table: nothing is kept between requests. A table its rules never
# reach (an open double, a first-turn chain, a follow-up, the engine not placed, a tile
# above 16, an engine not the round's) is answered `unsupported`; a table with a seat
# count its table lacks, or a round past the match's last, a refused setup.
#
# PLANTED BUGS, all on unless --fixed is given (--bug=NAME alone turns on one only),
# written before any suite command ran on it; each names the clause it breaks:
#   1. "sixteen-rounds" (breaks MATCH-1): the author counts a double-16 match as 16
#      rounds, `$round > $HIGH`: the deal of round 17, the [0-0] round, is refused
#      (refused-setup, MATCH-1), and `winners` holds the match over after round 16
#      whatever the totals. Shows only at the match's last rounds (a large set's edge:
#      seventeen rounds are more than any fixture's small set has).
#   2. "mexican-at-n" (breaks TRAIN-1): the Mexican Train is kept as train n of the
#      seat-indexed list, so a play on train n (one past the last seat) is taken as a play
#      on the Mexican Train instead of refused. Shows where a play names train n.
#   3. "drawn-keeps-marker" (breaks MARK-3): the drawn tile's own code path forgets the
#      marker: a marked player who draws and plays the drawn tile on their own train
#      leaves the marker up. Shows where a marked player's drawn tile goes home.

namespace eval bogey {
    variable HIGH 16
    variable LAST_ROUND 17
    variable TOTAL_LIMIT 300
    variable TABLE {6 16 7 15 8 14 9 13 10 12 11 11 12 10}
    variable bug
    array set bug {sixteen-rounds 1 mexican-at-n 1 drawn-keeps-marker 1}
}

# ---------------------------------------------------------------- JSON, read and written
# A value read is a pair {kind payload}: o (payload a dict of key -> value), a (a list of
# values), s (a string), i (an integer), d (another number), b (0 or 1), z (null).

namespace eval json {}

proc json::parse {text} {
    variable tokens
    # Tokens: a string keeps its opening quote. Tcl's regexp costs tens of microseconds a
    # call here, so a line without backslashes is cut at its quotes instead.
    if {[string first "\\" $text] >= 0} {
        set re {"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+|\S}
        set tokens {}
        foreach t [regexp -all -inline $re $text] {
            lappend tokens [expr {[string index $t 0] eq "\"" ? "\"[unquote $t]" : $t}]
        }
    } else {
        set parts [split $text "\""]
        if {[llength $parts] % 2 == 0} { error "bad-request: a string is not closed" }
        set tokens {}
        set inside 0
        foreach part $parts {
            if {$inside} {
                lappend tokens "\"$part"
            } else {
                foreach w [split [string map {\{ " \{ " \} " \} " \[ " \[ " \] " \] " : " : " , " , "
                                  \t " " \n " " \r " "} $part] " "] {
                    if {$w ne ""} { lappend tokens $w }
                }
            }
            set inside [expr {!$inside}]
        }
    }
    variable pos 0
    set value [value]
    if {$pos != [llength $tokens]} { error "bad-request: text after the JSON value" }
    return $value
}

proc json::value {} {
    # the value at token `pos` of `tokens` (the namespace's: a parse reads one line)
    variable tokens
    variable pos
    set t [lindex $tokens $pos]
    incr pos
    switch -- $t {
        "\{" {
            set d [dict create]
            if {[lindex $tokens $pos] eq "\}"} { incr pos; return [list o $d] }
            while 1 {
                set k [lindex $tokens $pos]
                if {[string index $k 0] ne "\""} { error "bad-request: a key is not a string" }
                if {[lindex $tokens [incr pos]] ne ":"} { error "bad-request: ':' expected" }
                incr pos
                set key [string range $k 1 end]
                if {[dict exists $d $key]} { error "bad-request: key $key given twice" }
                set t [lindex $tokens $pos]
                if {[string index $t 0] eq "\""} {  ;# a string leaf read here: no call
                    dict set d $key [list s [string range $t 1 end]]
                    incr pos
                } else {
                    dict set d $key [value]
                }
                set sep [lindex $tokens $pos]
                incr pos
                if {$sep eq "\}"} { return [list o $d] }
                if {$sep ne ","} { error "bad-request: ',' or '\}' expected" }
            }
        }
        "\[" {
            set l {}
            if {[lindex $tokens $pos] eq "\]"} { incr pos; return [list a $l] }
            while 1 {
                set t [lindex $tokens $pos]
                if {[string index $t 0] eq "\""} {  ;# (tiles: most of a table's tokens)
                    lappend l [list s [string range $t 1 end]]
                    incr pos
                } else {
                    lappend l [value]
                }
                set sep [lindex $tokens $pos]
                incr pos
                if {$sep eq "\]"} { return [list a $l] }
                if {$sep ne ","} { error "bad-request: ',' or '\]' expected" }
            }
        }
        true { return {b 1} }
        false { return {b 0} }
        null { return {z {}} }
        "" { error "bad-request: the JSON text ends too soon" }
        default {
            if {[string index $t 0] eq "\""} { return [list s [string range $t 1 end]] }
            if {[string is entier -strict $t] && [string is digit [string trimleft $t -]]} {
                return [list i $t]
            }
            if {[string is double -strict $t]} { return [list d $t] }
            error "bad-request: unexpected '$t'"
        }
    }
}

proc json::unquote {token} {
    subst -nocommands -novariables [string range $token 1 end-1]
}

proc json::str {s} {
    return "\"[string map {\\ \\\\ \" \\\" \n \\n \r \\r \t \\t} $s]\""
}

proc json::strs {l} {
    set out {}
    foreach s $l { lappend out [str $s] }
    return "\[[join $out ,]\]"
}

proc json::ints {l} { return "\[[join $l ,]\]" }

# ---------------------------------------------------------------- reading a request

proc field {obj key} {
    # the value of a required field of a JSON object (a pair as json::value made it)
    if {[lindex $obj 0] ne "o" || ![dict exists [lindex $obj 1] $key]} {
        error "bad-request: missing field $key"
    }
    return [dict get [lindex $obj 1] $key]
}

proc has {obj key} { dict exists [lindex $obj 1] $key }

proc int_of {v what} {
    if {[lindex $v 0] ne "i"} { error "bad-request: $what is not an integer" }
    return [lindex $v 1]
}

proc list_of {v what} {
    if {[lindex $v 0] ne "a"} { error "bad-request: $what is not a list" }
    return [lindex $v 1]
}

proc tile_of {v what} {
    # a tile as the high end first; an end past 18 or a text not "a-b" is a bad request
    lassign [split [lindex $v 1] -] a b extra
    if {[lindex $v 0] ne "s" || $extra ne "" || [llength [split [lindex $v 1] -]] != 2
            || ![string is digit -strict $a] || ![string is digit -strict $b]
            || [string length $a] > 2 || [string length $b] > 2} {
        error "bad-request: $what is not a tile"
    }
    scan $a %d a
    scan $b %d b
    if {$a > 18 || $b > 18} { error "bad-request: $what is not a tile" }
    return [expr {$a >= $b ? "$a-$b" : "$b-$a"}]
}

proc tiles_of {v what} {
    # tile_of over a list, inline: a table of twelve hands is mostly tiles
    set out {}
    foreach t [list_of $v $what] {
        set ab [split [lindex $t 1] -]
        lassign $ab a b
        if {[lindex $t 0] ne "s" || [llength $ab] != 2 || ![string is digit -strict $a]
                || ![string is digit -strict $b] || [string length $a] > 2
                || [string length $b] > 2} {
            error "bad-request: $what is not a tile"
        }
        scan $a %d a
        scan $b %d b
        if {$a > 18 || $b > 18} { error "bad-request: $what is not a tile" }
        lappend out [expr {$a >= $b ? "$a-$b" : "$b-$a"}]
    }
    return $out
}

proc ends {tile} { split $tile - }
proc pips {tile} { lassign [split $tile -] a b; expr {$a + $b} }

proc unsupported {why} { error [list unsupported $why] }
proc refused_setup {why clause} { error [list refused-setup $why $clause] }

proc read_state {v} {
    # The table as a dict; a table bogey's rules never reach is `unsupported`.
    set n [llength [list_of [field $v hands] hands]]
    table_size $n
    set st [dict create n $n]
    foreach key {round engine seat starter passes} {
        dict set st $key [int_of [field $v $key] $key]
    }
    set phase [field $v phase]
    if {[lindex $phase 0] ne "s"} { error "bad-request: phase is not a text" }
    set phase [lindex $phase 1]
    if {$phase ni {start over}} { unsupported "phase $phase: doubles are ordinary, turns single" }
    dict set st phase $phase
    set r [dict get $st round]
    if {$r < 1} { error "bad-request: round $r" }
    if {$r > [last_round]} { refused_setup "a double-16 match has [last_round] rounds" MATCH-1 }
    if {[dict get $st engine] != $::bogey::HIGH - ($r - 1)} {
        unsupported "engine [dict get $st engine] is not round $r's"
    }
    if {[lindex [field $v engine_placed] 1] != 1} { unsupported "the engine is set aside" }
    foreach key {open_doubles turn_doubles} {
        if {[llength [list_of [field $v $key] $key]]} { unsupported "$key: no double is open" }
    }
    set hands {}
    foreach h [list_of [field $v hands] hands] { lappend hands [tiles_of $h hand] }
    dict set st hands $hands
    dict set st boneyard [tiles_of [field $v boneyard] boneyard]
    set trains {}
    set marks {}
    foreach t [list_of [field $v trains] trains] {
        lappend trains [read_train $t]
        lappend marks [lindex [field $t marker] 1]
    }
    if {[llength $trains] != $n} { error "bad-request: [llength $trains] trains for $n seats" }
    dict set st trains $trains
    dict set st marks $marks
    dict set st mexican [read_train [field $v mexican]]
    set drawn [field $v drawn]
    dict set st drawn [expr {[lindex $drawn 0] eq "z" ? "" : [tile_of $drawn drawn]}]
    set firsts {}
    foreach s [list_of [field $v first_turns] first_turns] { lappend firsts [int_of $s seat] }
    dict set st first_turns [lsort -integer $firsts]
    foreach key {scores outs} {
        set l {}
        foreach x [list_of [field $v $key] $key] { lappend l [int_of $x $key] }
        if {[llength $l] != $n} { error "bad-request: $key has [llength $l] seats" }
        dict set st $key $l
    }
    dict set st result [field $v result]
    foreach tile [concat {*}$hands [dict get $st boneyard]] {
        lassign [ends $tile] a b
        if {$a > $::bogey::HIGH} { unsupported "tile $tile is not of a double-16 set" }
    }
    return $st
}

proc read_train {t} {
    # {tiles end}: the tiles as written (near end first) and the open end
    set tiles {}
    foreach x [list_of [field $t tiles] tiles] {
        lassign [split [tile_of $x "a train's tile"] -] high
        if {$high > $::bogey::HIGH} { unsupported "a tile above 16" }
        lassign [split [lindex $x 1] -] a b
        lappend tiles "[scan $a %d]-[scan $b %d]"  ;# as laid: near end first
    }
    return [list $tiles [int_of [field $t end] end]]
}

proc table_size {n} {
    if {![dict exists $::bogey::TABLE $n]} {
        refused_setup "bogey deals to 6 to 12 players, not $n" DEAL-7
    }
    return [dict get $::bogey::TABLE $n]
}

proc last_round {} {
    # MATCH-1: a double-16 match runs from [16-16] down to [0-0], seventeen rounds
    if {$::bogey::bug(sixteen-rounds)} { return $::bogey::HIGH }
    return $::bogey::LAST_ROUND
}

# ---------------------------------------------------------------- writing a state

proc write_train {tr {marker ""}} {
    lassign $tr tiles end
    set out "\{\"tiles\":[json::strs $tiles],\"end\":$end"
    if {$marker ne ""} { append out ",\"marker\":[expr {$marker ? "true" : "false"}]" }
    return "$out\}"
}

proc write_result {st} {
    set r [dict get $st result]
    if {[lindex $r 0] eq "z"} { return null }
    if {[lindex $r 0] eq "o"} {  # as read: written back as it came
        set end [lindex [field $r end] 1]
        set w [field $r winner]
        set w [expr {[lindex $w 0] eq "z" ? "null" : [lindex $w 1]}]
        set sc {}
        foreach x [lindex [field $r scores] 1] { lappend sc [lindex $x 1] }
        return "\{\"end\":[json::str $end],\"winner\":$w,\"scores\":[json::ints $sc]\}"
    }
    lassign $r end w sc  ;# made here: {end winner scores}
    return "\{\"end\":[json::str $end],\"winner\":$w,\"scores\":[json::ints $sc]\}"
}

proc write_state {st} {
    set hands {}
    foreach h [dict get $st hands] { lappend hands [json::strs $h] }
    set trains {}
    foreach tr [dict get $st trains] m [dict get $st marks] { lappend trains [write_train $tr $m] }
    set drawn [dict get $st drawn]
    set out "\{\"round\":[dict get $st round],\"engine\":[dict get $st engine]"
    append out ",\"engine_placed\":true,\"phase\":[json::str [dict get $st phase]]"
    append out ",\"seat\":[dict get $st seat],\"starter\":[dict get $st starter]"
    append out ",\"hands\":\[[join $hands ,]\],\"boneyard\":[json::strs [dict get $st boneyard]]"
    append out ",\"trains\":\[[join $trains ,]\],\"mexican\":[write_train [dict get $st mexican]]"
    append out ",\"open_doubles\":\[\],\"turn_doubles\":\[\]"
    append out ",\"drawn\":[expr {$drawn eq "" ? "null" : [json::str $drawn]}]"
    append out ",\"first_turns\":[json::ints [dict get $st first_turns]]"
    append out ",\"passes\":[dict get $st passes],\"scores\":[json::ints [dict get $st scores]]"
    append out ",\"outs\":[json::ints [dict get $st outs]],\"result\":[write_result $st]\}"
    return $out
}

# ---------------------------------------------------------------- the rules

proc train_end {st train} {
    if {$train eq "mexican"} { return [lindex [dict get $st mexican] 1] }
    return [lindex [dict get $st trains] $train 1]
}

proc open_to {st seat train} {
    # TRAIN-4: one's own train, the Mexican Train, or a train carrying its owner's marker
    expr {$train eq "mexican" || $train == $seat || [lindex [dict get $st marks] $train]}
}

proc fits {tile end} {
    lassign [ends $tile] a b
    expr {$a == $end || $b == $end}
}

proc plays {st} {
    # every legal play of the seat to act, as {tile train} pairs
    set seat [dict get $st seat]
    set drawn [dict get $st drawn]
    set hand [expr {$drawn eq "" ? [lindex [dict get $st hands] $seat] : [list $drawn]}]
    set trains [list mexican]
    for {set t 0} {$t < [dict get $st n]} {incr t} {
        if {[open_to $st $seat $t]} { lappend trains $t }
    }
    set out {}
    foreach tile $hand {
        foreach t $trains {
            if {[fits $tile [train_end $st $t]]} { lappend out [list $tile $t] }
        }
    }
    return $out
}

proc legal {st} {
    if {[dict get $st phase] eq "over"} { return {} }
    set ps [plays $st]
    if {[llength $ps]} {
        set out {}
        foreach p $ps { lappend out [list play {*}$p] }
        return $out
    }
    # TURN-2, TURN-4: draw while the boneyard has tiles and nothing was drawn; else pass
    if {[dict get $st drawn] eq "" && [llength [dict get $st boneyard]]} { return {{draw}} }
    return {{pass}}
}

proc refusal {st action} {
    # the clause refusing `action`, in REFUSAL_PRECEDENCE's order, or "" when it is legal
    if {[dict get $st phase] eq "over"} { return {END-1 "the round is over"} }
    lassign $action kind tile train
    set seat [dict get $st seat]
    set n [dict get $st n]
    switch -- $kind {
        end-chain { return {FIRST-7 "every turn is a one-tile turn: there is no chain to end"} }
        draw - pass {
            if {[llength [plays $st]]} { return {TURN-1 "a tile can be played"} }
            set drawn [dict get $st drawn]
            set empty [expr {![llength [dict get $st boneyard]]}]
            if {$kind eq "draw"} {
                if {$empty} { return {TURN-4 "the boneyard is empty"} }
                if {$drawn ne ""} { return {TURN-2 "one draw a turn"} }
            } elseif {$drawn eq "" && !$empty} {
                return {TURN-2 "a player who cannot play draws before passing"}
            }
            return {}
        }
    }
    if {$tile ni [lindex [dict get $st hands] $seat]} {
        lassign [ends $tile] a
        if {$a > $::bogey::HIGH} { return [list SET-1 "$tile is not a tile of a double-16 set"] }
        return [list TURN-7 "seat $seat does not hold $tile"]
    }
    if {$train ne "mexican" && $train >= $n} {
        if {!($::bogey::bug(mexican-at-n) && $train == $n)} {
            return [list TRAIN-1 "there is no train $train at a table of $n"]
        }
        set train mexican  ;# (the bug: the Mexican Train is kept as train n)
    }
    if {![fits $tile [train_end $st $train]]} {
        return [list TRAIN-2 "$tile does not match the open end [train_end $st $train]"]
    }
    set drawn [dict get $st drawn]
    if {$drawn ne "" && $tile ne $drawn} { return [list TURN-3 "only the drawn $drawn may be played"] }
    if {![open_to $st $seat $train]} {
        return [list TRAIN-4 "seat $train's train carries no marker"]
    }
    return {}
}

proc hand_value {hand} {
    set v 0
    foreach t $hand { incr v [pips $t] }  ;# SCORE-1: face values, a blank 0
    return $v
}

proc round_scores {st winner} {
    # SCORE-5: each hand's value; the player who went out scores 0
    set out {}
    foreach h [dict get $st hands] { lappend out [hand_value $h] }
    if {$winner ne "null"} { lset out $winner 0 }
    return $out
}

proc finish {stVar end winner} {
    upvar 1 $stVar st
    set sc [round_scores $st $winner]
    set totals {}
    foreach t [dict get $st scores] s $sc { lappend totals [expr {min($t + $s, 2147483647)}] }
    dict set st scores $totals  ;# MATCH-1: the totals carry the round
    if {$winner ne "null"} {
        set outs [dict get $st outs]
        lset outs $winner [expr {[lindex $outs $winner] + 1}]
        dict set st outs $outs
    }
    dict set st result [list $end $winner $sc]
    dict set st phase over
    dict set st drawn ""
}

proc end_turn {stVar} {
    upvar 1 $stVar st
    set seat [dict get $st seat]
    dict set st drawn ""
    dict set st first_turns [lsearch -all -inline -not -exact [dict get $st first_turns] $seat]
    dict set st seat [expr {($seat + 1) % [dict get $st n]}]  ;# SEAT-1
    dict set st phase start
    if {![llength [dict get $st boneyard]] && [dict get $st passes] >= [dict get $st n]} {
        finish st blocked null  ;# END-3: a full round of passes on an empty boneyard
    }
}

proc perform {st action} {
    lassign $action kind tile train
    set seat [dict get $st seat]
    switch -- $kind {
        draw {
            set bone [dict get $st boneyard]
            set hands [dict get $st hands]
            lset hands $seat [concat [lindex $hands $seat] [list [lindex $bone 0]]]
            dict set st hands $hands
            dict set st drawn [lindex $bone 0]  ;# TURN-3: only this tile may now be played
            dict set st boneyard [lrange $bone 1 end]  ;# TURN-2: the first tile
            return $st
        }
        pass {
            dict set st marks [lreplace [dict get $st marks] $seat $seat 1]  ;# MARK-1
            if {![llength [dict get $st boneyard]]} {
                dict incr st passes  ;# END-3 counts the passes on an empty boneyard
            }
            end_turn st
            return $st
        }
    }
    if {$train ne "mexican" && $train >= [dict get $st n]} { set train mexican }  ;# (bug 2)
    set hands [dict get $st hands]
    set hand [lindex $hands $seat]
    set hand [lreplace $hand [lsearch -exact $hand $tile] [lsearch -exact $hand $tile]]
    lset hands $seat $hand
    dict set st hands $hands
    set end [train_end $st $train]
    lassign [ends $tile] a b
    set far [expr {$a == $end ? $b : $a}]
    set laid "$end-$far"  ;# TRAIN-2: near end first
    if {$train eq "mexican"} {
        lassign [dict get $st mexican] tiles
        dict set st mexican [list [concat $tiles [list $laid]] $far]
    } else {
        set trains [dict get $st trains]
        lassign [lindex $trains $train] tiles
        lset trains $train [list [concat $tiles [list $laid]] $far]
        dict set st trains $trains
        set keep [expr {[dict get $st drawn] ne "" && $::bogey::bug(drawn-keeps-marker)}]
        if {$train == $seat && !$keep} {
            dict set st marks [lreplace [dict get $st marks] $seat $seat 0]  ;# MARK-3
        }
    }
    dict set st passes 0
    dict set st drawn ""
    if {![llength $hand]} {
        finish st domino $seat  ;# END-1: out
    } else {
        end_turn st  ;# TURN-6, DBL-11: every tile ends the turn
    }
    return $st
}

proc read_action {v} {
    if {[lindex $v 0] ne "o"} { error "bad-request: an action is an object" }
    set kind [field $v type]
    if {[lindex $kind 0] ne "s"} { error "bad-request: type is not a text" }
    set kind [lindex $kind 1]
    set keys [lsort [dict keys [lindex $v 1]]]
    switch -- $kind {
        play {
            if {$keys ne {tile train type}} { error "bad-request: a play has type, tile, train" }
            set tile [tile_of [field $v tile] tile]
            set t [field $v train]
            if {[lindex $t 0] eq "s" && [lindex $t 1] eq "mexican"} {
                set train mexican
            } elseif {[lindex $t 0] eq "i" && [lindex $t 1] >= 0} {
                set train [lindex $t 1]
            } else {
                error "bad-request: train is a seat or \"mexican\""
            }
            return [list play $tile $train]
        }
        draw - pass - end-chain {
            if {$keys ne {type}} { error "bad-request: a $kind has no other field" }
            return [list $kind]
        }
    }
    error "bad-request: no action $kind"
}

proc winners {st} {
    # "three hundred" (match_length: other) and "last out takes it" (tie_rule: other)
    if {[dict get $st phase] ne "over"} { return {} }
    set totals [dict get $st scores]
    set top [tcl::mathfunc::max {*}$totals]
    if {[dict get $st round] < [last_round] && $top < $::bogey::TOTAL_LIMIT} {
        return {}  ;# the match goes on
    }
    set low [tcl::mathfunc::min {*}$totals]
    set level [lsearch -all -exact $totals $low]  ;# MATCH-2: the lowest total
    set r [dict get $st result]
    set w [expr {[lindex $r 0] eq "o" ? [lindex [field $r winner] 1] : [lindex $r 1]}]
    if {[llength $level] > 1 && $w ne "" && $w ne "null" && $w in $level} { return [list $w] }
    return $level
}

proc deal {req} {
    set n [int_of [field $req players] players]
    set size [table_size $n]
    set r [int_of [field $req round] round]
    if {$r < 1} { error "bad-request: round $r" }
    if {$r > [last_round]} {
        refused_setup "a double-16 match has [last_round] rounds, not $r" MATCH-1
    }
    set engine [expr {$::bogey::HIGH - ($r - 1)}]
    set pool [tiles_of [field $req order] order]
    set want {}
    for {set a 0} {$a <= $::bogey::HIGH} {incr a} {
        for {set b 0} {$b <= $a} {incr b} {
            if {!($a == $engine && $b == $engine)} { lappend want "$a-$b" }  ;# ENG-2
        }
    }
    if {[lsort $pool] ne [lsort $want]} {
        error "bad-request: the pool is not the double-16 set without the engine"
    }
    set hands {}
    for {set s 0} {$s < $n} {incr s} {
        lappend hands [lrange $pool [expr {$s * $size}] [expr {($s + 1) * $size - 1}]]
    }
    set start [expr {($r - 1) % $n}]  ;# SEAT-3
    set seats {}
    set zeros {}
    set trains {}
    set marks {}
    for {set s 0} {$s < $n} {incr s} {
        lappend seats $s
        lappend zeros 0
        lappend trains [list {} $engine]
        lappend marks 0
    }
    return [dict create n $n round $r engine $engine phase start seat $start starter $start \
                hands $hands boneyard [lrange $pool [expr {$n * $size}] end] trains $trains \
                marks $marks mexican [list {} $engine] drawn "" first_turns $seats passes 0 \
                scores $zeros outs $zeros result {z {}}]
}

proc score {req st} {
    if {[has $req winner] && [lindex [field $req winner] 0] ne "z"} {
        set w [int_of [field $req winner] winner]
        if {$w >= [dict get $st n] || [llength [lindex [dict get $st hands] $w]]} {
            error "bad-request: seat $w has not gone out"
        }
    } elseif {[has $req winner]} {
        set w null
    } else {
        if {[dict get $st phase] ne "over"} { error "bad-request: the round is not over" }
        set w [field [dict get $st result] winner]
        set w [expr {[lindex $w 0] eq "z" ? "null" : [lindex $w 1]}]
    }
    return [round_scores $st $w]
}

proc hello {} {
    set options {}
    foreach {o v} {tile_set double-16 hand_sizes custom engine_procedure set-aside
            starting_seat rotate first_turn single mexican_first_turn anyone
            own_train_first not-required doubles ordinary follow_up anywhere
            double_order oldest-first uncoverable_double stays-open
            marker_removal owner-plays-own draw_rule draw-one
            blocked_round full-round-of-passes scoring penalty blank_values face
            tie_rule other match_length other} {
        lappend options "[json::str $o]:[json::str $v]"
    }
    set table {}
    foreach {n h} $::bogey::TABLE { lappend table "\"$n\":$h" }
    set rules "\"name\":\"bogey\",\"options\":\{[join $options ,]\}"
    append rules ",\"hand_sizes\":\{[join $table ,]\}"
    return "\"protocol\":1,\"name\":\"bogey\",\"version\":\"1.2.0\",\"rules\":\{$rules\}"
}

proc answer {req} {
    # the answer's fields after id and ok
    set type [field $req type]
    if {[lindex $type 0] ne "s"} { error "bad-request: type is not a text" }
    switch -- [lindex $type 1] {
        hello {
            if {[has $req protocol] && [lindex [field $req protocol] 1] != 1} {
                error [list protocol-version "bogey speaks protocol 1"]
            }
            return [hello]
        }
        shutdown { return "" }
        deal { return "\"state\":[write_state [deal $req]]" }
        legal {
            set out {}
            foreach a [legal [read_state [field $req state]]] {
                lassign $a kind tile train
                if {$kind eq "play"} {
                    set t [expr {$train eq "mexican" ? "\"mexican\"" : $train}]
                    lappend out "\{\"type\":\"play\",\"tile\":[json::str $tile],\"train\":$t\}"
                } else {
                    lappend out "\{\"type\":\"$kind\"\}"
                }
            }
            return "\"actions\":\[[join $out ,]\]"
        }
        apply {
            set st [read_state [field $req state]]
            set action [read_action [field $req action]]
            set no [refusal $st $action]
            if {[llength $no]} {
                lassign $no clause reason
                return "\"refused\":\{\"reason\":[json::str $reason],\"clause\":\"$clause\"\}"
            }
            return "\"state\":[write_state [perform $st $action]]"
        }
        score {
            set st [read_state [field $req state]]
            return "\"scores\":[json::ints [score $req $st]]"
        }
        winners { return "\"winners\":[json::ints [winners [read_state [field $req state]]]]" }
    }
    error "bad-request: no request type [lindex $type 1]"
}

proc serve {} {
    fconfigure stdin -translation auto -encoding utf-8
    fconfigure stdout -translation lf -encoding utf-8 -buffering line
    puts stderr "bogey 1.2.0: double-16, three hundred, last out takes it"
    while {[gets stdin line] >= 0} {
        if {[string index $line 0] eq "\uFEFF"} { set line [string range $line 1 end] }
        if {[string trim $line] eq ""} { continue }
        set id null
        set done 0
        if {[catch {
            set req [json::parse $line]
            if {[lindex $req 0] ne "o" || ![has $req id]} { error "bad-request: no id" }
            set id [int_of [field $req id] id]
            set done [expr {[lindex [field $req type] 1] eq "shutdown"}]
            set body [answer $req]
            set out "\{\"id\":$id,\"ok\":true[expr {$body eq "" ? "" : ",$body"}]\}"
        } err]} {
            set out [error_answer $id $err]
        }
        puts stdout $out
        if {$done} { exit 0 }
    }
}

proc error_answer {id err} {
    set kind ""
    catch {set kind [lindex $err 0]}
    if {$kind in {unsupported refused-setup protocol-version}} {
        set msg [lindex $err 1]
        set extra [expr {$kind eq "refused-setup" ? ",\"clause\":\"[lindex $err 2]\""
                         : $kind eq "protocol-version" ? ",\"supported\":\[1\]" : ""}]
    } elseif {[string match "bad-request: *" $err]} {
        set kind bad-request
        set msg [string range $err 13 end]
        set extra ""
    } else {
        set kind internal
        set msg $err
        set extra ""
    }
    return "\{\"id\":$id,\"ok\":false,\"error\":\{\"kind\":\"$kind\",\"message\":[json::str $msg]$extra\}\}"
}

foreach arg $argv {
    if {$arg eq "--fixed"} {
        array set bogey::bug {sixteen-rounds 0 mexican-at-n 0 drawn-keeps-marker 0}
    } elseif {$arg eq "--bugs"} {
        array set bogey::bug {sixteen-rounds 1 mexican-at-n 1 drawn-keeps-marker 1}
    } elseif {[regexp {^--bug=(.+)$} $arg -> name] && [info exists bogey::bug($name)]} {
        array set bogey::bug {sixteen-rounds 0 mexican-at-n 0 drawn-keeps-marker 0}
        set bogey::bug($name) 1
    } else {
        puts stderr "bogey: unknown argument $arg"
        exit 2
    }
}
if {![info exists ::noserve]} serve
