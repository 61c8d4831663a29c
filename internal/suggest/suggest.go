// Package suggest finds the names a mistyped one was likely meant to be:
// the "did you mean" of an unknown session or slice id, by the same
// measure kong uses for an unknown flag (the edit distance), plus the
// names the word is a prefix of.
package suggest

import "sort"

// Max is how many names Near returns at most.
const Max = 3

// Near returns up to Max of names close to word, nearest first (ties in
// the order given): those within an edit distance of a third of word's
// length (at most 3; none for a word under 3 characters, where one edit
// reaches every other short name), and those word, of 2 characters or
// more, is a prefix of. word itself is never among them.
func Near(word string, names []string) []string {
	limit := min(len([]rune(word))/3, 3)
	type cand struct {
		name string
		dist int
		at   int
	}
	var found []cand
	seen := map[string]bool{word: true}
	for i, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		d := Distance(word, n)
		if d <= limit || (len(word) >= 2 && len(n) > len(word) && n[:len(word)] == word) {
			found = append(found, cand{n, d, i})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].dist < found[j].dist })
	var out []string
	for i := 0; i < len(found) && i < Max; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// Distance is the Levenshtein distance between a and b, in runes.
func Distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(y)]
}
