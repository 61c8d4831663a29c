package slices

import (
	"fmt"
	"strings"
)

// graphFault is one problem in the dependsOn graph.
type graphFault struct {
	slice  string // the slice the problem is reported on
	detail string
}

// graphFaults checks dependsOn: every id names an existing slice other than
// itself, and the graph has no cycle. Each cycle is reported once, on the
// slice where the search entered it, as the path that closes it
// ("1 → 2 → 1": 1 depends on 2, which depends on 1).
func graphFaults(slices []Slice) []graphFault {
	index := make(map[string]int, len(slices))
	for i, s := range slices {
		if _, dup := index[s.ID]; !dup {
			index[s.ID] = i
		}
	}
	var faults []graphFault
	for _, s := range slices {
		for _, d := range s.DependsOn {
			if d == s.ID {
				faults = append(faults, graphFault{s.ID, "depends on itself"})
			} else if _, ok := index[d]; !ok {
				faults = append(faults, graphFault{s.ID, fmt.Sprintf("depends on unknown slice %s", d)})
			}
		}
	}
	const (
		unseen = iota
		open
		closed
	)
	state := make([]int, len(slices))
	var path []string
	var visit func(i int)
	visit = func(i int) {
		state[i] = open
		path = append(path, slices[i].ID)
		for _, d := range slices[i].DependsOn {
			j, ok := index[d]
			if !ok || j == i {
				continue // reported above
			}
			switch state[j] {
			case unseen:
				visit(j)
			case open:
				start := len(path) - 1
				for path[start] != d {
					start--
				}
				cycle := append(append([]string(nil), path[start:]...), d)
				faults = append(faults, graphFault{d, "dependsOn cycle: " + strings.Join(cycle, " → ")})
			}
		}
		path = path[:len(path)-1]
		state[i] = closed
	}
	for i := range slices {
		if state[i] == unseen {
			visit(i)
		}
	}
	return faults
}
