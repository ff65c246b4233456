# cython: language_level=3, boundscheck=False, wraparound=False
"""The body walk of body.py (`_Walk.read`), compiled: the same reading, node for node, done by C
over lexbor's own node structs instead of by Python over selectolax's node objects, which cost
about a microsecond a node to make and to ask for their tag and text.

body.py stays the reference and the fallback: it uses this walker only when the extension was
built against the selectolax that is running (lexbor's layout is read here directly, and another
selectolax may bundle another lexbor), and a differential test holds both to the same output.
Whatever needs an element's attributes (a colour, an image's alt text) is asked from the page's
`Marks`, which found those elements with selectolax before the walk.
"""
from libc.stdint cimport uintptr_t
from libc.stdlib cimport free, malloc, realloc
from cpython.unicode cimport PyUnicode_DecodeUTF8, Py_UNICODE_ISSPACE

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND

cdef extern from *:
    """
    #ifndef FORUMGM_SELECTOLAX_VERSION
    #define FORUMGM_SELECTOLAX_VERSION ""
    #endif
    """
    const char *FORUMGM_SELECTOLAX_VERSION

# the selectolax whose lexbor the structs below were compiled against (set by setup.py)
BUILT_FOR_SELECTOLAX = FORUMGM_SELECTOLAX_VERSION.decode()


# lexbor's DOM node, field for field (lexbor/dom/interfaces/node.h, lexbor 2.x and 3.x, the
# lexbor of selectolax 1.0): declared here because selectolax's wheel ships no lexbor headers.
cdef struct Node:
    void *events                 # lxb_dom_event_target_t
    uintptr_t local_name         # the tag id (what selectolax's `tag_id` returns)
    uintptr_t prefix
    uintptr_t ns
    void *owner_document
    Node *next
    Node *prev
    Node *parent
    Node *first_child
    Node *last_child
    void *user
    unsigned int type            # lxb_dom_node_type_t (a C enum)

cdef struct Text:                # lxb_dom_character_data_t: the node, then its text (lexbor_str_t)
    Node node
    const char *data
    size_t length

cdef enum:
    TEXT_NODE = 3                # LXB_DOM_NODE_TYPE_TEXT
    TAGS = 256                   # the standard tags' ids are below this; a custom tag's never matter
    BLOCK = 1
    SKIPPED = 2
    PREFORMATTED = 4
    WHERE_NONE = 0               # index into WHERE
    WHERE_QUOTE = 1
    WHERE_SPOILER = 2
    WHERE_CODE = 3

WHERE = ("", "quote", "spoiler", "code")


cdef struct Context:             # body.py's _Context; the fragment is an index into the walk's list, -1: none
    bint quoted
    int where
    bint preformatted
    Py_ssize_t fragment

cdef struct Frame:               # an element whose end matters: a block's newline, or the context to return to
    Node *element
    bint block
    Context outer


cdef class BodyWalk:
    """Reads bodies; made once, with the tag ids body.py compares and its text patterns."""
    cdef unsigned char kinds[TAGS]
    cdef uintptr_t text_id, br_id, img_id
    cdef object spaces, literal_spoiler, fragment_class

    def __init__(self, *, text_id, br_id, img_id, blocks, skipped, preformatted,
                 spaces, literal_spoiler, fragment_class):
        cdef int i
        for i in range(TAGS):
            self.kinds[i] = 0
        for ids, kind in ((blocks, BLOCK), (skipped, SKIPPED), (preformatted, PREFORMATTED)):
            for i in ids:
                if not 0 <= i < TAGS:
                    raise ValueError(f"tag id {i} is not a standard tag's")
                self.kinds[i] |= kind
        self.text_id, self.br_id, self.img_id = text_id, br_id, img_id
        self.spaces, self.literal_spoiler, self.fragment_class = spaces, literal_spoiler, fragment_class

    def read(self, body, marks):
        """(pieces of the text, pieces of the text outside quotes, coloured fragments) of `body`
        (a LexborNode, kept alive by the caller) with the page's found `marks`."""
        cdef _Reading reading = _Reading(self, marks)
        reading.walk(<Node *> <size_t> body.mem_id)
        return reading.full, reading.unquoted, reading.fragments


cdef class _Reading:
    cdef BodyWalk walk_of
    cdef object marks, quotes, spoilers, codes, ignored, marked
    cdef bint has_quotes
    cdef list full, unquoted, fragments, pieces
    cdef Py_ssize_t last_written
    cdef int literal_spoilers
    cdef Frame *frames
    cdef Py_ssize_t depth, capacity

    def __cinit__(self, BodyWalk walk_of, marks):
        self.walk_of, self.marks = walk_of, marks
        self.quotes, self.spoilers, self.codes = marks.quotes, marks.spoilers, marks.codes
        self.ignored, self.marked = marks.ignored, marks.any
        self.has_quotes = bool(self.quotes)
        self.full, self.unquoted, self.fragments, self.pieces = [], [], [], []
        self.last_written = -1
        self.literal_spoilers = 0
        self.frames, self.depth, self.capacity = NULL, 0, 0

    def __dealloc__(self):
        free(self.frames)

    cdef int walk(self, Node *body) except -1:
        """Depth first in page order by lexbor's own links: down to the first child, on to the
        next sibling, up to the parent when there is none. An element whose end matters has a
        frame, closed when the walk leaves it."""
        cdef BodyWalk walk_of = self.walk_of
        cdef Node *node = body.first_child
        cdef Context context
        context.quoted, context.where, context.preformatted, context.fragment = False, WHERE_NONE, False, -1
        cdef Context inner
        cdef uintptr_t tag
        cdef unsigned char kind
        cdef bint descend, changed, block, marked = bool(self.marked)
        cdef Text *text
        cdef object value
        cdef size_t node_id
        while node != NULL:
            descend = False
            tag = node.local_name
            kind = walk_of.kinds[tag] if tag < TAGS else 0
            if tag == walk_of.text_id:
                text = <Text *> node
                if node.type == TEXT_NODE and text.data != NULL and text.length:
                    self.text(PyUnicode_DecodeUTF8(text.data, text.length, "replace"), context)
            elif kind & SKIPPED:
                pass
            elif tag == walk_of.br_id:
                if not (marked and <size_t> node in self.ignored):
                    self.write("\n", context)
            elif tag == walk_of.img_id:
                if not (marked and <size_t> node in self.ignored):
                    value = self.marks.alt(<size_t> node)
                    if value:
                        self.write(value, context)
            else:
                node_id = <size_t> node
                inner, changed, descend = context, False, True
                if marked and node_id in self.marked:
                    if node_id in self.ignored:
                        descend = False
                    else:
                        inner, changed = self.enter(node_id, tag, context), True
                elif not context.preformatted and kind & PREFORMATTED:
                    inner.preformatted, changed = True, True
                if descend:
                    block = kind & BLOCK
                    if block or changed:
                        self.push(node, block, context)
                    context = inner
                    if block:
                        self.write("\n", context)       # what a block shows before its children
            if descend and node.first_child != NULL:
                node = node.first_child
                continue
            while True:               # the node is done: close what ends with it, then move on
                if self.depth and self.frames[self.depth - 1].element == node:
                    self.depth -= 1
                    if self.frames[self.depth].block:
                        self.write("\n", context)
                    context = self.frames[self.depth].outer
                if node.next != NULL:
                    node = node.next
                    break
                node = node.parent
                if node == body:
                    node = NULL
                    break
        return 0

    cdef int push(self, Node *element, bint block, Context outer) except -1:
        cdef Frame *grown
        if self.depth == self.capacity:
            grown = <Frame *> realloc(self.frames, (self.capacity * 2 + 16) * sizeof(Frame))
            if grown == NULL:
                raise MemoryError()
            self.frames, self.capacity = grown, self.capacity * 2 + 16
        self.frames[self.depth].element = element
        self.frames[self.depth].block = block
        self.frames[self.depth].outer = outer
        self.depth += 1
        return 0

    cdef int text(self, str value, Context context) except -1:
        """A text node's text: body.py's whitespace and literal [spoiler] handling, then written.
        body.py turns every run of whitespace (`\\s`, what Py_UNICODE_ISSPACE says) into one
        space, with checks that spare it the regex on most texts; here one pass over the
        characters finds out whether anything is to change, and makes the change."""
        cdef Py_ssize_t length = len(value), i
        cdef Py_UCS4 ch
        cdef bint bracket = False, change = False, after_space = False
        for i in range(length):
            ch = value[i]
            if Py_UNICODE_ISSPACE(ch):
                change = change or ch != 32 or after_space
                after_space = True
            else:
                after_space = False
                bracket = bracket or ch == 91       # "["
        if change and not context.preformatted:
            value = _collapsed(value, length)
        if bracket:
            for found in self.walk_of.literal_spoiler(value):
                self.literal_spoilers = max(0, self.literal_spoilers + (-1 if found.group(1) else 1))
        return self.write(value, context)

    cdef int write(self, str value, Context context) except -1:
        self.full.append(value)
        if self.has_quotes and not context.quoted:
            self.unquoted.append(value)
        if context.fragment >= 0:
            (<list> self.pieces[context.fragment]).append(value)
        self.last_written = context.fragment
        return 0

    cdef Context enter(self, size_t node_id, uintptr_t tag, Context context) except *:
        """body.py's `_Walk.enter`: the context a marked element reads its children in."""
        cdef Context inner
        cdef bint entering_quote = node_id in self.quotes
        cdef int fragment_where
        inner.quoted = context.quoted or entering_quote
        if inner.quoted:
            inner.where = WHERE_QUOTE
        elif context.where != WHERE_NONE:
            inner.where = context.where
        elif node_id in self.spoilers:
            inner.where = WHERE_SPOILER
        elif node_id in self.codes:
            inner.where = WHERE_CODE
        else:
            inner.where = WHERE_NONE
        inner.preformatted = (context.preformatted or (tag < TAGS and self.walk_of.kinds[tag] & PREFORMATTED)
                              or node_id in self.codes)
        inner.fragment = -1 if entering_quote else context.fragment
        color = self.marks.color(node_id)
        if color is not None and (inner.fragment < 0 or self.fragments[inner.fragment].color != color):
            fragment_where = inner.where
            if fragment_where == WHERE_NONE and self.literal_spoilers > 0:
                fragment_where = WHERE_SPOILER
            touching = self.fragments[self.last_written] if self.last_written >= 0 else None
            if touching is not None and touching.color == color and touching.where == WHERE[fragment_where]:
                inner.fragment = self.last_written   # "[color=blue]Ас[/color][color=blue]кон[/color]"
            else:
                fragment = self.walk_of.fragment_class(color, WHERE[fragment_where])
                self.fragments.append(fragment)
                self.pieces.append(fragment.pieces)
                inner.fragment = len(self.fragments) - 1
        return inner


cdef str _collapsed(str value, Py_ssize_t length):
    """`value` with every run of whitespace made one space."""
    cdef Py_UCS4 *out = <Py_UCS4 *> malloc(length * sizeof(Py_UCS4) + 1)
    cdef Py_ssize_t i, size = 0
    cdef Py_UCS4 ch
    cdef bint in_run = False
    if out == NULL:
        raise MemoryError()
    try:
        for i in range(length):
            ch = value[i]
            if not Py_UNICODE_ISSPACE(ch):
                out[size], in_run = ch, False
                size += 1
            elif not in_run:
                out[size], in_run = 32, True
                size += 1
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, size)
    finally:
        free(out)
