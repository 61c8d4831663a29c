package app

import "github.com/orc-state/orc-state/internal/secrets"

// RedactCredentials is s with every credential-shaped run replaced by a
// "[redacted <kind>]" marker, as the credential guard finds them
// (secrets.Redact): what the command line's stderr passes each line
// through, so that no message, hint or warning can echo credential-shaped
// input, whichever code path printed it.
func RedactCredentials(s string) string { return secrets.Redact(s) }
