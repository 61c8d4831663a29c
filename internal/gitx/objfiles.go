package gitx

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Objects read from the object files. Starting `git cat-file` costs a
// process (about a millisecond of CPU, which on a large work tree is
// taken from the git status it runs beside) for what is usually one
// commit of a few hundred bytes: HEAD's subject, or the last commits of
// the resume packet. Where git would read the object from this
// repository's own object directory, it is read here as git stores it:
// a loose object (objects/xx/yyyy, zlib), or an entry of a pack found
// through the pack's index (version 2), deltas applied. Git stays the
// oracle:
//
//   - every object read is checked against its id: its type, size and
//     content hash to the id asked for (SHA-1 or SHA-256, by the id's
//     length), so what is returned is that object, exactly as git would
//     return it, whatever the way it was found;
//   - the files are read only where git would not answer otherwise: the
//     ref files give git's answer (refFilesReadable: a format every git
//     reads, the user's own repository, git on PATH, no
//     GIT_OBJECT_DIRECTORY) and no replace ref can stand for an object (no
//     ref under refs/replace/, loose or packed, and no GIT_REPLACE_REF_BASE);
//   - anything else sends the caller to git as before: an object not found
//     here (an alternate's, a partial clone's missing one), a pack or
//     index of another version or shape, a delta chain too deep, an
//     object too large, any read error or content that does not hash to
//     its id.
//
// What the object means stays git's: the branch headers of git status
// say which commit HEAD is; only that commit's bytes are read here.

// Limits of a read by hand: beyond them git is asked.
const (
	maxObjectBytes = 4 << 20 // an object (or delta base) larger than this is git's to read
	maxDeltaDepth  = 512     // git's default chain depth is 50
	maxBucketRead  = 512     // ids of one first byte read at once; more are probed one by one
)

// objectFiles reads objects from one object directory.
type objectFiles struct {
	dir string // <common dir>/objects

	mu     sync.Mutex
	listed bool
	packs  []*pack
	z      io.ReadCloser // the zlib reader, reused
}

// pack is one pack and its index, opened on first use.
type pack struct {
	name string // path without ".idx"

	opened    bool
	bad       bool // could not be opened or is of a shape not read here
	idx, data *os.File
	hashLen   int
	count     uint32
	fanout    [256]uint32
	bucket    uint32 // ids of one first byte read at once up to this many (maxBucketRead)
}

// errNotHere is the object files' "ask git": the object is not one this
// reader can give exactly as git would.
var errNotHere = errors.New("not readable from the object files")

// read returns the type and content of the object id (full, lower-case
// hex), checked against id; errNotHere when git must be asked.
func (o *objectFiles) read(id string) (kind string, data []byte, err error) {
	raw, err := hex.DecodeString(id)
	if err != nil || (len(raw) != sha1.Size && len(raw) != sha256.Size) {
		return "", nil, errNotHere
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	kind, data, err = o.find(raw, 0)
	if err != nil || !hashesTo(kind, data, raw) {
		return "", nil, errNotHere
	}
	return kind, data, nil
}

// find looks for the object named raw, loose first, then in each pack.
func (o *objectFiles) find(raw []byte, depth int) (string, []byte, error) {
	id := hex.EncodeToString(raw)
	kind, data, err := o.loose(id)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return kind, data, err
	}
	o.listPacks()
	for _, p := range o.packs {
		off, ok, err := p.lookup(raw)
		if err != nil {
			return "", nil, err
		}
		if ok {
			return o.entry(p, off, depth)
		}
	}
	return "", nil, errNotHere
}

// loose reads a loose object: "<type> <size>\0<content>", zlib
// compressed, nothing after it. fs.ErrNotExist when there is none.
func (o *objectFiles) loose(id string) (string, []byte, error) {
	f, err := os.Open(filepath.Join(o.dir, id[:2], id[2:]))
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	z, err := o.inflate(bufio.NewReaderSize(f, 4096))
	if err != nil {
		return "", nil, err
	}
	br := bufio.NewReaderSize(z, 512)
	header, err := br.ReadSlice(0) // within the buffer, or not an object header
	if err != nil || len(header) > 32 {
		return "", nil, errNotHere
	}
	kind, size, ok := strings.Cut(string(header[:len(header)-1]), " ")
	n, err := strconv.ParseInt(size, 10, 64)
	if !ok || err != nil || n < 0 || n > maxObjectBytes || !knownKind(kind) {
		return "", nil, errNotHere
	}
	data, err := readExactly(br, n)
	if err != nil {
		return "", nil, errNotHere
	}
	return kind, data, nil
}

// readExactly reads n bytes from r, then its end: more bytes, or fewer,
// is a doubt (git refuses both).
func readExactly(r io.Reader, n int64) ([]byte, error) {
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, errNotHere
	}
	var one [1]byte
	for range 8 {
		m, err := r.Read(one[:])
		switch {
		case m > 0:
			return nil, errNotHere
		case err == io.EOF:
			return data, nil
		case err != nil:
			return nil, errNotHere
		}
	}
	return nil, errNotHere
}

// inflate is a zlib reader of r, the one decompressor reused (its window
// is 32 KiB): reads never overlap, a delta's base being read whole before
// the delta.
func (o *objectFiles) inflate(r io.Reader) (io.Reader, error) {
	if o.z != nil {
		if err := o.z.(zlib.Resetter).Reset(r, nil); err != nil {
			return nil, errNotHere
		}
		return o.z, nil
	}
	z, err := zlib.NewReader(r)
	if err != nil {
		return nil, errNotHere
	}
	o.z = z
	return z, nil
}

// knownKind reports the four object types.
func knownKind(kind string) bool {
	switch kind {
	case "commit", "tree", "blob", "tag":
		return true
	}
	return false
}

// hashesTo reports whether an object of kind with data is named raw.
func hashesTo(kind string, data, raw []byte) bool {
	var h hash.Hash
	switch len(raw) {
	case sha1.Size:
		h = sha1.New()
	case sha256.Size:
		h = sha256.New()
	default:
		return false
	}
	h.Write([]byte(kind + " " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return bytes.Equal(h.Sum(nil), raw)
}

// has reports whether id (full, lower-case hex) is an object here as git
// tests it, without fetching: a loose object, or an id a pack's index
// lists, its pack file beside it. Its content is not read.
func (o *objectFiles) has(id string) bool {
	if !isLowerObjectID(id) {
		return false
	}
	if _, err := os.Lstat(filepath.Join(o.dir, id[:2], id[2:])); err == nil {
		return true
	}
	raw, err := hex.DecodeString(id)
	if err != nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.listPacks()
	for _, p := range o.packs {
		if _, ok, err := p.lookup(raw); err == nil && ok {
			return true
		}
	}
	return false
}

// listPacks finds objects/pack/*.idx once (each with its .pack).
func (o *objectFiles) listPacks() {
	if o.listed {
		return
	}
	o.listed = true
	entries, err := os.ReadDir(filepath.Join(o.dir, "pack"))
	if err != nil {
		return
	}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".idx"); ok && strings.HasPrefix(name, "pack-") {
			o.packs = append(o.packs, &pack{name: filepath.Join(o.dir, "pack", name)})
		}
	}
}

// close closes every pack opened.
func (o *objectFiles) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range o.packs {
		if p.idx != nil {
			p.idx.Close()
		}
		if p.data != nil {
			p.data.Close()
		}
	}
	o.packs, o.listed = nil, false
}

// The index, version 2: magic and version, 256 cumulative counts by first
// byte, the sorted ids, a CRC each, a 4-byte offset each (high bit set:
// an index into 8-byte offsets that follow), the pack's checksum and its
// own.
var idxMagic = []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}

// open reads the index's header and tells its id length (SHA-1 or
// SHA-256) from its size; an index of another version or size is bad.
func (p *pack) open() {
	if p.opened {
		return
	}
	p.opened, p.bad, p.bucket = true, true, maxBucketRead
	idx, err := os.Open(p.name + ".idx")
	if err != nil {
		return
	}
	p.idx = idx
	var head [8 + 256*4]byte
	if _, err := idx.ReadAt(head[:], 0); err != nil || !bytes.Equal(head[:8], idxMagic) {
		return
	}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(head[8+4*i:])
		if i > 0 && p.fanout[i] < p.fanout[i-1] {
			return
		}
	}
	p.count = p.fanout[255]
	fi, err := idx.Stat()
	if err != nil {
		return
	}
	for _, hashLen := range []int{sha1.Size, sha256.Size} { // at most one fits
		least := int64(len(head)) + int64(p.count)*int64(hashLen+8) + 2*int64(hashLen)
		if fi.Size() >= least && fi.Size() <= least+int64(p.count)*8 && (fi.Size()-least)%8 == 0 {
			p.hashLen = hashLen
		}
	}
	if p.hashLen == 0 {
		return
	}
	data, err := os.Open(p.name + ".pack")
	if err != nil {
		return
	}
	p.data, p.bad = data, false
}

// lookup finds raw in the index: its offset in the pack, ok false when
// the pack does not hold it.
func (p *pack) lookup(raw []byte) (off int64, ok bool, err error) {
	p.open()
	if p.bad || p.hashLen != len(raw) {
		return 0, false, nil
	}
	lo := uint32(0)
	if raw[0] > 0 {
		lo = p.fanout[raw[0]-1]
	}
	hi := p.fanout[raw[0]]
	if lo == hi {
		return 0, false, nil
	}
	// The ids starting with raw's first byte: read at once when few (a
	// repository of up to about 100,000 objects), else one per probe.
	base := int64(8 + 256*4)
	first := base + int64(lo)*int64(p.hashLen)
	var names []byte
	if hi-lo <= p.bucket {
		names = make([]byte, int(hi-lo)*p.hashLen)
		if _, err := p.idx.ReadAt(names, first); err != nil {
			return 0, false, errNotHere
		}
	}
	probe := make([]byte, p.hashLen)
	name := func(m int) ([]byte, error) {
		if names != nil {
			return names[m*p.hashLen : (m+1)*p.hashLen], nil
		}
		_, err := p.idx.ReadAt(probe, first+int64(m)*int64(p.hashLen))
		return probe, err
	}
	i, j := 0, int(hi-lo) // binary search in [i, j)
	for i < j {
		m := (i + j) / 2
		id, err := name(m)
		if err != nil {
			return 0, false, errNotHere
		}
		switch c := bytes.Compare(id, raw); {
		case c == 0:
			i, j = m, -1
		case c < 0:
			i = m + 1
		default:
			j = m
		}
	}
	if j != -1 {
		return 0, false, nil
	}
	pos := int64(lo) + int64(i)
	offsets := base + int64(p.count)*int64(p.hashLen+4)
	var b [8]byte
	if _, err := p.idx.ReadAt(b[:4], offsets+pos*4); err != nil {
		return 0, false, errNotHere
	}
	small := binary.BigEndian.Uint32(b[:4])
	if small&0x80000000 == 0 {
		return int64(small), true, nil
	}
	large := offsets + int64(p.count)*4 + int64(small&0x7fffffff)*8
	if _, err := p.idx.ReadAt(b[:], large); err != nil {
		return 0, false, errNotHere
	}
	off = int64(binary.BigEndian.Uint64(b[:]))
	if off < 0 {
		return 0, false, errNotHere
	}
	return off, true, nil
}

// Pack entry types.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

var packKinds = map[int]string{packCommit: "commit", packTree: "tree", packBlob: "blob", packTag: "tag"}

// entry reads the object at off in p: a header (type, size), then for a
// delta its base (an offset back in the pack, or an id), then the zlib
// data. A delta is applied to its base, read the same way.
func (o *objectFiles) entry(p *pack, off int64, depth int) (string, []byte, error) {
	if depth > maxDeltaDepth || off < 12 {
		return "", nil, errNotHere
	}
	r := bufio.NewReaderSize(io.NewSectionReader(p.data, off, 1<<62), 4096)
	c, err := r.ReadByte()
	if err != nil {
		return "", nil, errNotHere
	}
	typ, size, shift := int(c>>4)&7, int64(c&15), uint(4)
	for c&0x80 != 0 {
		if c, err = r.ReadByte(); err != nil || shift > 56 {
			return "", nil, errNotHere
		}
		size |= int64(c&0x7f) << shift
		shift += 7
	}
	if size > maxObjectBytes {
		return "", nil, errNotHere
	}
	var baseKind string
	var base []byte
	switch typ {
	case packCommit, packTree, packBlob, packTag:
	case packOfsDelta:
		c, err := r.ReadByte()
		if err != nil {
			return "", nil, errNotHere
		}
		back := int64(c & 0x7f)
		for c&0x80 != 0 {
			if c, err = r.ReadByte(); err != nil || back > 1<<48 {
				return "", nil, errNotHere
			}
			back = (back+1)<<7 | int64(c&0x7f)
		}
		if back <= 0 || back >= off {
			return "", nil, errNotHere
		}
		if baseKind, base, err = o.entry(p, off-back, depth+1); err != nil {
			return "", nil, err
		}
	case packRefDelta:
		raw := make([]byte, p.hashLen)
		if _, err := io.ReadFull(r, raw); err != nil {
			return "", nil, errNotHere
		}
		if baseKind, base, err = o.find(raw, depth+1); err != nil {
			return "", nil, err
		}
	default:
		return "", nil, errNotHere
	}
	z, err := o.inflate(r)
	if err != nil {
		return "", nil, err
	}
	data, err := readExactly(z, size)
	if err != nil {
		return "", nil, errNotHere
	}
	if baseKind == "" {
		return packKinds[typ], data, nil
	}
	out, err := applyDelta(base, data)
	if err != nil {
		return "", nil, err
	}
	return baseKind, out, nil
}

// applyDelta builds an object from its base and a delta: the base's size
// and the result's (varints), then instructions: copy a range of the
// base (high bit set: which offset and size bytes follow), or insert the
// next 1-127 bytes.
func applyDelta(base, delta []byte) ([]byte, error) {
	varint := func() (int64, bool) {
		var v int64
		for shift := uint(0); len(delta) > 0 && shift < 63; shift += 7 {
			c := delta[0]
			delta = delta[1:]
			v |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	src, ok1 := varint()
	dst, ok2 := varint()
	if !ok1 || !ok2 || src != int64(len(base)) || dst > maxObjectBytes {
		return nil, errNotHere
	}
	out := make([]byte, 0, dst)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n int64
			for i := uint(0); i < 7; i++ {
				if op&(1<<i) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errNotHere
				}
				if i < 4 {
					off |= int64(delta[0]) << (8 * i)
				} else {
					n |= int64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > int64(len(base)) || int64(len(out))+n > dst {
				return nil, errNotHere
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			if int(op) > len(delta) || int64(len(out))+int64(op) > dst {
				return nil, errNotHere
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errNotHere // reserved
		}
	}
	if int64(len(out)) != dst {
		return nil, errNotHere
	}
	return out, nil
}

// objectFilesReadable reports whether git, asked here for an object of
// this repository, would read it from the object files of the common dir
// as they are, with no replacement: see the top of this file.
func (l Layout) objectFilesReadable() bool {
	if !l.refFilesReadable() || l.Env.Get("GIT_REPLACE_REF_BASE") != "" {
		return false
	}
	root := filepath.Join(l.CommonDir, "refs", "replace")
	fi, err := os.Lstat(root)
	switch {
	case err == nil && fi.IsDir():
		some := errors.New("a replace ref")
		if err := filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return some
			}
			return nil
		}); err != nil {
			return false
		}
	case err == nil, unlessAbsent(err) != nil:
		return false
	}
	replaced, ok := l.packedRefs(func(name string) bool { return strings.HasPrefix(name, "refs/replace/") })
	return ok && len(replaced) == 0
}
