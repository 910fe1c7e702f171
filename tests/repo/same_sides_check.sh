#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# No assertion compares an expression with itself: fails when a Criterion
# comparison (eq(T, a, a), cr_assert_eq(a, a), cr_assert(a == a), ...) or a
# strcmp/strncmp/memcmp has the same expression on both sides.  Such a
# check cannot fail; tests/unit/test_build_graph.c once held one, above the
# real check it was meant to be.  Sides are compared as text without
# whitespace, comments and enclosing parentheses.
#
#   tests/repo/same_sides_check.sh [DIR]     (default: tests/; DIR from the top)
#   tests/repo/same_sides_check.sh --self-test
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# Prints "file:line: text" for each hit in the .c and .h files under the
# directories given.  Perl is part of every Debian system (perl-base); the
# scanner uses no module outside it.
scan() {
	find "$@" \( -name '*.c' -o -name '*.h' \) -type f -print0 | sort -z | xargs -0 -r perl -e '
use strict;
use warnings;

# The file with comments blanked (newlines kept, for line numbers); string
# and character literals are kept as they are.
sub uncomment {
	my ($s) = @_;
	my $out = "";
	my $n = length $s;
	for (my $i = 0; $i < $n; ) {
		my $c = substr($s, $i, 1);
		my $two = substr($s, $i, 2);
		if ($two eq "/*") {
			my $end = index($s, "*/", $i + 2);
			$end = $n - 2 if $end < 0;
			(my $blank = substr($s, $i, $end + 2 - $i)) =~ s/[^\n]/ /g;
			$out .= $blank;
			$i = $end + 2;
		} elsif ($two eq "//") {
			my $end = index($s, "\n", $i);
			$end = $n if $end < 0;
			$out .= " " x ($end - $i);
			$i = $end;
		} elsif (my $lit = literal_at($s, $i)) {
			$out .= $lit;
			$i += length $lit;
		} else {
			$out .= $c;
			$i++;
		}
	}
	return $out;
}

# The index just past the string or character literal that starts at $i.
sub literal_end {
	my ($s, $i) = @_;
	my $q = substr($s, $i, 1);
	my $n = length $s;
	for (my $j = $i + 1; $j < $n; $j++) {
		my $c = substr($s, $j, 1);
		if ($c eq "\\") { $j++; next; }
		return $j + 1 if $c eq $q || $c eq "\n";
	}
	return $n;
}

# The string or character literal that starts at $i, or "" when none does.
sub literal_at {
	my ($s, $i) = @_;
	my $c = substr($s, $i, 1);
	return "" unless $c eq "\"" || $c eq "\x27";
	return substr($s, $i, literal_end($s, $i) - $i);
}

# The arguments of the call whose "(" is at $open, split at top-level
# commas, or () when the parentheses do not close.
sub args_at {
	my ($s, $open) = @_;
	my ($depth, $cur, @args) = (0, "");
	my $n = length $s;
	for (my $i = $open; $i < $n; $i++) {
		my $c = substr($s, $i, 1);
		if (my $lit = literal_at($s, $i)) {
			$cur .= $lit;
			$i += length($lit) - 1;
			next;
		}
		if ($c =~ /[([{]/) {
			$depth++;
			next if $depth == 1;
		} elsif ($c =~ /[)\]}]/) {
			$depth--;
			if ($depth == 0) { push @args, $cur; return @args; }
		} elsif ($c eq "," && $depth == 1) {
			push @args, $cur; $cur = ""; next;
		}
		$cur .= $c;
	}
	return ();
}

# An expression as compared: no whitespace outside literals, no
# parentheses that enclose all of it.
sub norm {
	my ($e) = @_;
	my $out = "";
	for (my $i = 0; $i < length $e; ) {
		my $c = substr($e, $i, 1);
		if (my $lit = literal_at($e, $i)) {
			$out .= $lit;
			$i += length $lit;
		} else {
			$out .= $c unless $c =~ /\s/;
			$i++;
		}
	}
	while ($out =~ /^\(/) {
		my @inner = args_at($out, 0);
		last unless @inner == 1 && length($inner[0]) == length($out) - 2;
		$out = $inner[0];
	}
	return $out;
}

# The operands of each top-level comparison in a condition, as
# [left, right] pairs: the condition is split at top-level && and ||, and
# each part at its first top-level comparison operator.
sub comparisons {
	my ($e) = @_;
	my ($cur, $depth, @parts) = ("", 0);
	for (my $i = 0; $i < length $e; $i++) {
		my $c = substr($e, $i, 1);
		if (my $lit = literal_at($e, $i)) {
			$cur .= $lit;
			$i += length($lit) - 1;
			next;
		}
		$depth++ if $c =~ /[([{]/;
		$depth-- if $c =~ /[)\]}]/;
		my $two = substr($e, $i, 2);
		if ($depth == 0 && ($two eq "&&" || $two eq "||")) {
			push @parts, $cur; $cur = ""; $i++; next;
		}
		$cur .= $c;
	}
	push @parts, $cur;
	my @pairs;
	for my $p (@parts) {
		$depth = 0;
		for (my $i = 0; $i < length $p; $i++) {
			my $c = substr($p, $i, 1);
			if (my $lit = literal_at($p, $i)) { $i += length($lit) - 1; next; }
			$depth++ if $c =~ /[([{]/;
			$depth-- if $c =~ /[)\]}]/;
			next if $depth;
			my $two = substr($p, $i, 2);
			my $len = 0;
			if ($two =~ /^(==|!=|<=|>=)$/) {
				$len = 2;
			} elsif ($c =~ /[<>]/) {
				my $prev = $i ? substr($p, $i - 1, 1) : "";
				my $next = substr($p, $i + 1, 1);
				$len = 1 unless $prev =~ /[-<>]/ || $next =~ /[<>=]/;
			}
			next unless $len;
			next if $len == 2 && $two =~ /^[<>]/ && $i && substr($p, $i - 1, 1) =~ /[<>]/;
			push @pairs, [substr($p, 0, $i), substr($p, $i + $len)];
			last;
		}
	}
	return @pairs;
}

my $bad = 0;
for my $file (@ARGV) {
	open my $fh, "<", $file or die "same_sides_check: $file: $!\n";
	my $src = do { local $/; <$fh> };
	close $fh;
	my $s = uncomment($src);
	my @hits;
	# Criterion 2.4 comparisons: eq(Tag, a, b), ..., epsilon_eq(Tag, a, b, e).
	while ($s =~ /(?<![\w.>])(eq|ne|lt|le|gt|ge|epsilon_eq|ieee_ulp_eq)\s*\(/g) {
		my $at = $-[0];
		my @a = args_at($s, $+[0] - 1);
		push @hits, [$at, $a[1], $a[2]] if @a >= 3;
	}
	# The older macros, cr_assert_eq(a, b), cr_expect_str_neq(a, b), ..., and
	# the library compares.
	while ($s =~ /(?<![\w.>])(?:cr_(?:assert|expect)_(?:str_|wcs_|float_|arr_)?(?:eq|neq|lt|leq|gt|geq)(?:_cmp)?|strcmp|strncmp|strcasecmp|memcmp)\s*\(/g) {
		my $at = $-[0];
		my @a = args_at($s, $+[0] - 1);
		push @hits, [$at, $a[0], $a[1]] if @a >= 2;
	}
	# A plain condition: cr_assert(a == b, ...), cr_expect_not(a < b && ...).
	while ($s =~ /(?<![\w.>])cr_(?:assert|expect)(?:_not)?\s*\(/g) {
		my $at = $-[0];
		my @a = args_at($s, $+[0] - 1);
		next unless @a;
		push @hits, [$at, @$_] for comparisons($a[0]);
	}
	for my $h (sort { $a->[0] <=> $b->[0] } @hits) {
		my ($at, $l, $r) = @$h;
		next unless defined $l && defined $r && norm($l) ne "" && norm($l) eq norm($r);
		my $line = 1 + (substr($s, 0, $at) =~ tr/\n//);
		(my $text = (split /\n/, $src)[$line - 1]) =~ s/^\s+//;
		print "$file:$line: $text\n";
		$bad = 1;
	}
}
exit 0;
'
}

check() {
	local hits
	hits=$(scan "$@")
	if [ -n "$hits" ]; then
		echo "$hits" >&2
		echo "same_sides_check: the assertions above compare an expression with itself and cannot fail" >&2
		return 1
	fi
	echo "  CHECK    no assertion compares an expression with itself"
}

# The scanner finds each planted self-comparison, in every form it knows,
# on one line or across several, and nothing in a file of near misses.
self_test() {
	local t hits n
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	cat > "$t/clean.c" <<-'EOF'
	Test(s, near_misses)
	{
		cr_assert(eq(sz, g.edges[p.edge].file, g.edges[p.edge].reader));
		cr_assert(eq(str, (char *)name, "a, a"));  /* eq(int, x, x) in a comment */
		// cr_assert_eq(x, x);
		cr_assert(p->next > p->prev, "a > a");
		cr_assert(a << 1 == b, "");
		cr_assert_eq(f(a, b), f(b, a));
		cr_assert(!strcmp(s, "s"));
		cr_assert(eq(int, x + 1, x));
	}
	EOF
	cat > "$t/planted.c" <<-'EOF'
	Test(s, planted)
	{
		cr_assert(eq(sz, g.edges[p.edge].file, g.edges[p.edge].file));
		cr_expect(not(eq(u64, a->b,
				 a -> b)));
		cr_assert_eq(f(a, b), f(a,b), "msg %d", 1);
		cr_assert_str_neq(name, (name));
		cr_assert(x == x, "never fails");
		cr_assert(y < 2 && x >= x);
		cr_assert(!strcmp(s, s));
		cr_assert(epsilon_eq(dbl, v, v, 0.1));
	}
	EOF
	hits=$(scan "$t/clean.c")
	[ -z "$hits" ] || { echo "$hits" >&2; echo "same_sides_check: self-test: a near miss was taken for a self-comparison" >&2; return 1; }
	hits=$(scan "$t/planted.c")
	n=$(printf '%s\n' "$hits" | grep -c '^.*planted\.c:[0-9]*:' || true)
	[ "$n" -eq 8 ] || { echo "$hits" >&2; echo "same_sides_check: self-test: $n of the 8 planted self-comparisons found" >&2; return 1; }
	echo "  CHECK    same-sides self-test: 8 planted self-comparisons caught, no near miss"
}

case ${1:-} in
--self-test) self_test ;;
*) check "${1:-tests}" ;;
esac
