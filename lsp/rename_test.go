package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const renameModule = `module counters
  integer :: cnt = 0
end module counters
`

const renameUser = `program main
  use counters
  cnt = 5
  call report()
end program main
subroutine report
  use counters, only: c => cnt
  print *, c, sum([1, 2])
end subroutine report
`

// TestRenameAcrossDocuments renames a module variable from a document
// that USEs it: the module and both units change, the local name of the
// rename clause does not; a refusal is a ResponseError (RequestFailed)
// with the reason.
func TestRenameAcrossDocuments(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	modURI, userURI := protocol.DocumentURI("file:///src/counters.f90"), protocol.DocumentURI("file:///src/main.f90")
	c.open(modURI, renameModule)
	c.open(userURI, renameUser)

	var rg *protocol.Range
	c.call("textDocument/prepareRename", textPos(userURI, posOf(t, renameUser, "cnt = 5", 1)), &rg)
	if rg == nil || rg.Start.Line != 2 || rg.Start.Character != 2 || rg.End.Character != 5 {
		t.Fatalf("prepareRename: %+v", rg)
	}
	var edit protocol.WorkspaceEdit
	rp := textPos(userURI, posOf(t, renameUser, "cnt = 5", 0))
	rp["newName"] = "total"
	c.call("textDocument/rename", rp, &edit)
	user := applyEdits(t, renameUser, edit.Changes[userURI])
	mod := applyEdits(t, renameModule, edit.Changes[modURI])
	if !strings.Contains(mod, "integer :: total = 0") || !strings.Contains(user, "  total = 5") ||
		!strings.Contains(user, "only: c => total") || !strings.Contains(user, "print *, c,") {
		t.Fatalf("rename cnt -> total:\n%s\n%s", mod, user)
	}

	rp = textPos(userURI, posOf(t, renameUser, "c, sum", 0))
	rp["newName"] = "sum"
	err := c.callErr("textDocument/rename", rp, &edit)
	if rpcCode(err) != requestFailed || !strings.Contains(err.Error(), "SUM is an intrinsic procedure used in REPORT") {
		t.Fatalf("rename c -> sum: %v (code %d)", err, rpcCode(err))
	}
	err = c.callErr("textDocument/prepareRename", textPos(userURI, posOf(t, renameUser, "sum(", 0)), &rg)
	if rpcCode(err) != requestFailed || !strings.Contains(err.Error(), "intrinsic") {
		t.Fatalf("prepareRename on SUM: %v", err)
	}
}
