package refsync

import (
	"errors"
	"testing"
)

func TestClassify(t *testing.T) {
	yes := func() (bool, error) { return true, nil }
	no := func() (bool, error) { return false, nil }
	never := func() (bool, error) { t.Helper(); t.Error("ancestry asked"); return false, nil }
	none := func() (string, error) { return "", nil }
	at := func(c string) func() (string, error) { return func() (string, error) { return c, nil } }
	noWalk := func() (string, error) { t.Helper(); t.Error("history walked"); return "", nil }
	tests := []struct {
		name string
		f    facts
		want State
		base string // the effective base
	}{
		{"local only, never pushed", facts{hasLocal: true, changed: true}, NotPushed, ""},
		{"local only, remote ref deleted", facts{hasLocal: true, base: "b", remoteBehindBase: never, remoteAncestor: noWalk}, NotPushed, "b"},
		{"remote only", facts{remote: "t", remoteBehindBase: never, remoteAncestor: noWalk}, RemoteOnly, ""},
		{"remote only, local removed after a sync", facts{base: "b", remote: "t", remoteBehindBase: never, remoteAncestor: noWalk}, RemoteOnly, "b"},
		{"same as the base and the remote", facts{hasLocal: true, base: "t", remote: "t", sameAsRemote: true, remoteBehindBase: never, remoteAncestor: noWalk}, InSync, "t"},
		{"same as the remote, no base (created alike, or crash after import)", facts{hasLocal: true, remote: "t", changed: true, sameAsRemote: true, remoteBehindBase: never, remoteAncestor: noWalk}, InSync, "t"},
		{"same as the remote, stale base", facts{hasLocal: true, base: "b", remote: "t", changed: true, sameAsRemote: true, remoteBehindBase: never, remoteAncestor: noWalk}, InSync, "t"},
		{"changed on the remote's head", facts{hasLocal: true, base: "t", remote: "t", changed: true, remoteBehindBase: never, remoteAncestor: noWalk}, Ahead, "t"},
		{"unchanged, remote behind the base", facts{hasLocal: true, base: "b", remote: "t", remoteBehindBase: yes, remoteAncestor: noWalk}, Ahead, "b"},
		{"changed, remote behind the base", facts{hasLocal: true, base: "b", remote: "t", changed: true, remoteBehindBase: yes, remoteAncestor: noWalk}, Ahead, "b"},
		{"follower: unchanged, remote moved", facts{hasLocal: true, base: "b", remote: "t", remoteBehindBase: no, remoteAncestor: noWalk}, Behind, "b"},
		{"both changed", facts{hasLocal: true, base: "b", remote: "t", changed: true, remoteBehindBase: no, remoteAncestor: none}, Diverged, "b"},
		{"both created without a base", facts{hasLocal: true, remote: "t", changed: true, remoteBehindBase: never, remoteAncestor: none}, Diverged, ""},
		// The base ref lags: a push the remote accepted, or an import
		// written, before the ref moved (a process stopped between the two).
		{"lagging base, changed since the push the remote accepted", facts{hasLocal: true, base: "b", remote: "t", changed: true, containsRemote: true, remoteBehindBase: no, remoteAncestor: noWalk}, Ahead, "t"},
		{"no base, changed since the first push the remote accepted", facts{hasLocal: true, remote: "t", changed: true, containsRemote: true, remoteBehindBase: never, remoteAncestor: noWalk}, Ahead, "t"},
		{"lagging base, the remote moved on from the push it accepted", facts{hasLocal: true, base: "b", remote: "t", changed: true, remoteBehindBase: no, remoteAncestor: at("p")}, Behind, "p"},
		{"no base, the remote moved on from an import written", facts{hasLocal: true, remote: "t", changed: true, remoteBehindBase: never, remoteAncestor: at("p")}, Behind, "p"},
		{"a base-equal state is behind without a walk", facts{hasLocal: true, base: "b", remote: "t", remoteBehindBase: no, remoteAncestor: noWalk}, Behind, "b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := classify(tc.f)
			if err != nil || got.state != tc.want || got.base != tc.base {
				t.Fatalf("classify = %+v, %v; want %q on %q", got, err, tc.want, tc.base)
			}
		})
	}
	boom := errors.New("boom")
	if _, err := classify(facts{hasLocal: true, base: "b", remote: "t", changed: true,
		remoteBehindBase: func() (bool, error) { return false, boom }}); !errors.Is(err, boom) {
		t.Fatalf("ancestry error lost: %v", err)
	}
	if _, err := classify(facts{hasLocal: true, base: "b", remote: "t", changed: true, remoteBehindBase: no,
		remoteAncestor: func() (string, error) { return "", boom }}); !errors.Is(err, boom) {
		t.Fatalf("history error lost: %v", err)
	}
}
