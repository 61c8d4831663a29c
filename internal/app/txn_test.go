package app

import (
	"errors"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
)

// TestJournalActorIsTheEnvironmentsThenTheHooksThenCli: $ORC_ACTOR names
// the actor whatever runs; a hook names itself when it does not; a plain
// verb is cli. An actor the journal could not keep (two lines, a
// credential) is refused as usage before any transaction.
func TestJournalActorIsTheEnvironmentsThenTheHooksThenCli(t *testing.T) {
	tests := []struct {
		name    string
		env     environ.List
		hook    string
		want    string
		refused bool
	}{
		{"plain verb", nil, "", "cli", false},
		{"hook", nil, "PreCompact", "hook:PreCompact", false},
		{"ORC_ACTOR over cli", environ.List{"ORC_ACTOR=agent-7"}, "", "agent-7", false},
		{"ORC_ACTOR over a hook", environ.List{"ORC_ACTOR=agent-7"}, "Stop", "agent-7", false},
		{"two lines", environ.List{"ORC_ACTOR=a\nb"}, "", "a\nb", true},
		{"a credential", environ.List{"ORC_ACTOR=ghp_" + "0123456789abcdefghijklmnopqrstuvwxyzAB"}, "", "ghp_" + "0123456789abcdefghijklmnopqrstuvwxyzAB", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWorld(tt.env, t.TempDir(), time.Now, time.Now)
			txn := NewTxn("phase set", time.Second, &Streams{}, w, NewStateDir("", w).Where(""))
			if tt.hook != "" {
				txn.SetHookActor(tt.hook)
			}
			if got := txn.Actor(); got != tt.want {
				t.Errorf("Actor() = %q, want %q", got, tt.want)
			}
			err := txn.CheckActor()
			if tt.refused {
				if code, _, _ := fault.Explain(err); code != fault.Usage {
					t.Errorf("CheckActor() = %v (exit %d), want a usage refusal", err, code)
				}
			} else if err != nil {
				t.Errorf("CheckActor() = %v, want nil", err)
			}
		})
	}
}

// TestTruncatedReadIsOnlyAMemoryFault: a recovered memory fault becomes
// the exit-3 refusal; any other panic value is nobody's to explain.
func TestTruncatedReadIsOnlyAMemoryFault(t *testing.T) {
	if err := TruncatedRead("a string"); err != nil {
		t.Errorf("TruncatedRead(string) = %v, want nil", err)
	}
	if err := TruncatedRead(errors.New("plain")); err != nil {
		t.Errorf("TruncatedRead(error) = %v, want nil", err)
	}
	err := TruncatedRead(memoryFault{})
	if code, _, hint := fault.Explain(err); code != fault.Invalid || hint == "" {
		t.Errorf("TruncatedRead(fault) = %v (exit %d, hint %q), want exit %d with a hint", err, code, hint, fault.Invalid)
	}
}

// memoryFault has the shape of the runtime's error for a fault under
// debug.SetPanicOnFault: an error with the faulting address.
type memoryFault struct{}

func (memoryFault) Error() string { return "unexpected fault address" }
func (memoryFault) Addr() uintptr { return 0x1000 }
