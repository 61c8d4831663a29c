package refsync

import (
	"errors"
	"testing"
)

func TestClassify(t *testing.T) {
	yes := func() (bool, error) { return true, nil }
	no := func() (bool, error) { return false, nil }
	never := func() (bool, error) { t.Helper(); t.Error("ancestry asked"); return false, nil }
	tests := []struct {
		name string
		f    facts
		want State
	}{
		{"local only, never pushed", facts{hasLocal: true, changed: true}, NotPushed},
		{"local only, remote ref deleted", facts{hasLocal: true, base: "b", remoteBehindBase: never}, NotPushed},
		{"remote only", facts{remote: "t", remoteBehindBase: never}, RemoteOnly},
		{"remote only, local removed after a sync", facts{base: "b", remote: "t", remoteBehindBase: never}, RemoteOnly},
		{"same as the base and the remote", facts{hasLocal: true, base: "t", remote: "t", sameAsRemote: true, remoteBehindBase: never}, InSync},
		{"same as the remote, no base (created alike, or crash after import)", facts{hasLocal: true, remote: "t", changed: true, sameAsRemote: true, remoteBehindBase: never}, InSync},
		{"same as the remote, stale base", facts{hasLocal: true, base: "b", remote: "t", changed: true, sameAsRemote: true, remoteBehindBase: never}, InSync},
		{"changed on the remote's head", facts{hasLocal: true, base: "t", remote: "t", changed: true, remoteBehindBase: never}, Ahead},
		{"unchanged, remote behind the base", facts{hasLocal: true, base: "b", remote: "t", remoteBehindBase: yes}, Ahead},
		{"changed, remote behind the base", facts{hasLocal: true, base: "b", remote: "t", changed: true, remoteBehindBase: yes}, Ahead},
		{"follower: unchanged, remote moved", facts{hasLocal: true, base: "b", remote: "t", remoteBehindBase: no}, Behind},
		{"both changed", facts{hasLocal: true, base: "b", remote: "t", changed: true, remoteBehindBase: no}, Diverged},
		{"both created without a base", facts{hasLocal: true, remote: "t", changed: true, remoteBehindBase: never}, Diverged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := classify(tc.f)
			if err != nil || got != tc.want {
				t.Fatalf("classify = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	boom := errors.New("boom")
	if _, err := classify(facts{hasLocal: true, base: "b", remote: "t", changed: true,
		remoteBehindBase: func() (bool, error) { return false, boom }}); !errors.Is(err, boom) {
		t.Fatalf("ancestry error lost: %v", err)
	}
}
