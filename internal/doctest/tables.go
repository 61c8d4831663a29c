package doctest

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Table is a Markdown table, its cells as plain text (code spans keep
// their content, emphasis marks go).
type Table struct {
	Line   int // the document line of the header row
	Header []string
	Rows   [][]string
}

// Tables returns a document's tables, in document order.
func Tables(src []byte) []Table {
	root := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader(src))
	var out []Table
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*extast.Table)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		tab := Table{Line: nodeLine(src, t)}
		for row := t.FirstChild(); row != nil; row = row.NextSibling() {
			var cells []string
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				cells = append(cells, strings.TrimSpace(plain(src, cell)))
			}
			if _, header := row.(*extast.TableHeader); header {
				tab.Header = cells
			} else {
				tab.Rows = append(tab.Rows, cells)
			}
		}
		out = append(out, tab)
		return ast.WalkSkipChildren, nil
	})
	return out
}

// plain is the text of an inline tree.
func plain(src []byte, n ast.Node) string {
	var sb strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			sb.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				sb.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return sb.String()
}

// nodeLine is the document line of the first text under n.
func nodeLine(src []byte, n ast.Node) int {
	line := 0
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			line = 1 + bytes.Count(src[:t.Segment.Start], []byte("\n"))
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return line
}

// Markdown lists the Markdown files under root, as slash paths relative
// to it, sorted; .git, .orc and testdata folders are not documents.
func Markdown(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".orc" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}
