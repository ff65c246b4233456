# cython: language_level=3, boundscheck=False, wraparound=False
"""The body walk of body.py (`_Walk.read`), compiled: the same reading, node for node, done by C
over lexbor's own node structs instead of by Python over selectolax's node objects, which cost
about a microsecond a node to make and to ask for their tag and text.

body.py stays the reference and the fallback: it uses this walker only when the extension was
built against the selectolax that is running (lexbor's layout is read here directly, and another
selectolax may bundle another lexbor), and a differential test holds both to the same output.
It also tells the special blocks (quotes, spoilers, code, ignored blocks) itself where the
layout names them with `tag`, `.class` or `tag.class` selectors, matching as lexbor's selectors
do, and reads colours and alt texts from the attributes: the page's queries for those (~3 µs
each, plus ~3 µs for each selector of a list) are then not run. Blocks named any other way are
taken from the page's `Marks` query, by node id.
"""
from libc.stdint cimport uintptr_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp

cdef extern from "<strings.h>":
    int strncasecmp(const char *a, const char *b, size_t n)
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

cdef struct Str:                 # lexbor_str_t
    const char *data
    size_t length

cdef struct Text:                # lxb_dom_character_data_t: the node, then its text
    Node node
    Str text

cdef struct Attr:                # lxb_dom_attr_t (dom/interfaces/attr.h): its node's local_name is the attribute's id
    Node node
    uintptr_t upper_name
    uintptr_t qualified_name
    Str *value
    void *owner
    Attr *next
    Attr *prev

cdef struct Element:             # lxb_dom_element_t (dom/interfaces/element.h), as far as read here
    Node node
    uintptr_t upper_name
    uintptr_t qualified_name
    void *is_value
    Attr *first_attr
    Attr *last_attr
    Attr *attr_id
    Attr *attr_class

cdef struct Document:            # lxb_dom_document_t (dom/interfaces/document.h), as far as read here
    Node node
    unsigned int compat_mode     # lxb_dom_document_cmode_t

cdef enum:
    ELEMENT_NODE = 1             # LXB_DOM_NODE_TYPE_ELEMENT
    TEXT_NODE = 3                # LXB_DOM_NODE_TYPE_TEXT
    QUIRKS = 1                   # LXB_DOM_DOCUMENT_CMODE_QUIRKS: class names match in any ASCII case
    ATTR_ALT = 0x06              # lexbor's static attribute ids (LXB_DOM_ATTR_*, attr_const.h)
    ATTR_COLOR = 0x0e
    ATTR_STYLE = 0x3e
    RULES = 32                   # at most this many simple selector items per layout, ...
    NAMES = 4                    # ... each with at most this many class names
    IS_QUOTE = 1                 # what an element is (bits)
    IS_SPOILER = 2
    IS_CODE = 4
    IS_IGNORED = 8
    TAGS = 256                   # the standard tags' ids are below this (another name's is an address)
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

cdef struct Rule:                # one `tag.class.class` item of a special block's selector
    int kind                     # IS_QUOTE...
    uintptr_t tag                # 0: any tag
    int names
    const char *name[NAMES]
    size_t length[NAMES]

KINDS = (("quote", IS_QUOTE), ("spoiler", IS_SPOILER), ("code", IS_CODE), ("ignore", IS_IGNORED))


cdef class BodyWalk:
    """Reads bodies; made once, with the tag ids body.py compares and its colour readers."""
    cdef unsigned char kinds[TAGS]
    cdef uintptr_t text_id, br_id, img_id, font_id
    cdef object literal_spoiler, fragment_class, style_color, font_color

    def __init__(self, *, text_id, br_id, img_id, font_id, blocks, skipped, preformatted,
                 literal_spoiler, fragment_class, style_color, font_color):
        cdef int i
        for i in range(TAGS):
            self.kinds[i] = 0
        for ids, kind in ((blocks, BLOCK), (skipped, SKIPPED), (preformatted, PREFORMATTED)):
            for i in ids:
                if not 0 <= i < TAGS:
                    raise ValueError(f"tag id {i} is not a standard tag's")
                self.kinds[i] |= kind
        self.text_id, self.br_id, self.img_id, self.font_id = text_id, br_id, img_id, font_id
        self.literal_spoiler, self.fragment_class = literal_spoiler, fragment_class
        self.style_color, self.font_color = style_color, font_color

    def read(self, body, marks):
        """(pieces of the text, pieces of the text outside quotes or None when nothing was
        quoted, coloured fragments) of `body` (a LexborNode, kept alive by the caller), with
        the page's `marks` for the special blocks this walk does not tell itself."""
        cdef _Reading reading = _Reading(self, marks)
        reading.walk(<Node *> <size_t> body.mem_id)
        return reading.full, reading.unquoted if reading.quoted else None, reading.fragments


cdef class _Reading:
    cdef BodyWalk walk_of
    cdef object queried                  # the special blocks found by query: node id -> IS_... bits
    cdef object simple                   # the simple selectors' items (kept alive: the rules point into them)
    cdef Rule rules[RULES]
    cdef int rule_count
    cdef bint quirks, quoted
    cdef list full, unquoted, fragments, pieces
    cdef Py_ssize_t last_written
    cdef int literal_spoilers
    cdef Frame *frames
    cdef Py_ssize_t depth, capacity

    def __cinit__(self, BodyWalk walk_of, marks):
        self.walk_of = walk_of
        self.queried, self.simple, self.rule_count = {}, [], 0
        for name, kind in KINDS:
            items = marks.simple(name)
            if items is not None and self.rule_count + len(items) <= RULES:
                for tag, names in items:
                    if len(names) > NAMES or tag >= TAGS:     # (another name's id is not lexbor's own)
                        break
                else:
                    self.simple.append(items)
                    for tag, names in items:
                        self.add_rule(kind, tag, names)
                    continue
            for node_id in marks.query(name):
                self.queried[node_id] = self.queried.get(node_id, 0) | kind
        self.full, self.unquoted, self.fragments, self.pieces = [], [], [], []
        self.quoted = False
        self.last_written = -1
        self.literal_spoilers = 0
        self.frames, self.depth, self.capacity = NULL, 0, 0

    def __dealloc__(self):
        free(self.frames)

    cdef void add_rule(self, int kind, uintptr_t tag, tuple names):
        cdef Rule *rule = &self.rules[self.rule_count]
        cdef int i
        rule.kind, rule.tag, rule.names = kind, tag, len(names)
        for i in range(rule.names):
            rule.name[i], rule.length[i] = <const char *> names[i], len(names[i])
        self.rule_count += 1

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
        cdef int special
        cdef bint descend, changed, block
        cdef Text *text
        cdef Str *value
        self.quirks = body.owner_document != NULL and (<Document *> body.owner_document).compat_mode == QUIRKS
        while node != NULL:
            descend = False
            tag = node.local_name
            kind = walk_of.kinds[tag] if tag < TAGS else 0
            if tag == walk_of.text_id:
                text = <Text *> node
                if node.type == TEXT_NODE and text.text.data != NULL and text.text.length:
                    self.text(PyUnicode_DecodeUTF8(text.text.data, text.text.length, "replace"), context)
            elif kind & SKIPPED:
                pass
            elif tag == walk_of.br_id:
                if not self.special(node, tag) & IS_IGNORED:
                    self.write("\n", context)
            elif tag == walk_of.img_id:
                if not self.special(node, tag) & IS_IGNORED:
                    value = _attribute(node, ATTR_ALT)
                    if value != NULL and value.length:
                        self.write(PyUnicode_DecodeUTF8(value.data, value.length, "replace"), context)
            else:
                special = self.special(node, tag)
                inner, changed, descend = context, False, not special & IS_IGNORED
                if descend and (special or tag == walk_of.font_id or _attribute(node, ATTR_STYLE) != NULL):
                    inner, changed = self.enter(node, special, tag, context), True
                elif descend and not context.preformatted and kind & PREFORMATTED:
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

    cdef int special(self, Node *node, uintptr_t tag) except -1:
        """Which special blocks (IS_... bits) the element is."""
        cdef int found = 0, i, j
        cdef Rule *rule
        cdef Str *classes = NULL
        if node.type != ELEMENT_NODE:
            return 0
        if (<Element *> node).attr_class != NULL:
            classes = (<Element *> node).attr_class.value
        for i in range(self.rule_count):
            rule = &self.rules[i]
            if found & rule.kind or (rule.tag and rule.tag != tag):
                continue
            for j in range(rule.names):
                if classes == NULL or not _has_class(classes, rule.name[j], rule.length[j], self.quirks):
                    break
            else:
                found |= rule.kind
        if self.queried:
            found |= self.queried.get(<size_t> node, 0)
        return found

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
        if context.quoted:
            self.quoted = True
        else:
            self.unquoted.append(value)
        if context.fragment >= 0:
            (<list> self.pieces[context.fragment]).append(value)
        self.last_written = context.fragment
        return 0

    cdef Context enter(self, Node *node, int special, uintptr_t tag, Context context) except *:
        """body.py's `_Walk.enter`: the context a special or coloured element reads its children in."""
        cdef Context inner
        cdef bint entering_quote = special & IS_QUOTE
        cdef int fragment_where
        inner.quoted = context.quoted or entering_quote
        if inner.quoted:
            inner.where = WHERE_QUOTE
        elif context.where != WHERE_NONE:
            inner.where = context.where
        elif special & IS_SPOILER:
            inner.where = WHERE_SPOILER
        elif special & IS_CODE:
            inner.where = WHERE_CODE
        else:
            inner.where = WHERE_NONE
        inner.preformatted = (context.preformatted or (tag < TAGS and self.walk_of.kinds[tag] & PREFORMATTED)
                              or special & IS_CODE)
        inner.fragment = -1 if entering_quote else context.fragment
        color = self.color(node, tag)
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

    cdef object color(self, Node *node, uintptr_t tag):
        """body.py's `element_color`: the colour of the element's style, or of a <font color>."""
        cdef Str *value = _attribute(node, ATTR_STYLE)
        color = None
        if value != NULL:
            color = self.walk_of.style_color(_text(value))
        if color is None and tag == self.walk_of.font_id:
            value = _attribute(node, ATTR_COLOR)
            if value != NULL:
                color = self.walk_of.font_color(_text(value))
        return color


cdef Str *_attribute(Node *node, uintptr_t attribute_id):
    """The value of an element's attribute (NULL: absent, or no value)."""
    cdef Attr *attribute
    if node.type != ELEMENT_NODE:
        return NULL
    attribute = (<Element *> node).first_attr
    while attribute != NULL:
        if attribute.node.local_name == attribute_id:
            return attribute.value
        attribute = attribute.next
    return NULL


cdef str _text(Str *value):
    return PyUnicode_DecodeUTF8(value.data, value.length, "replace") if value.data != NULL else ""


cdef bint _has_class(Str *classes, const char *name, size_t length, bint quirks):
    """Whether `name` is one of the whitespace-separated words of a class attribute, as lexbor's
    lxb_selectors_match_class tells it (any ASCII case in a quirks-mode document)."""
    cdef const char *data = classes.data
    cdef size_t start = 0, i, size = classes.length
    if data == NULL:
        return False
    for i in range(size + 1):
        if i == size or data[i] in b" \t\n\f\r":
            if i - start == length and (
                    (quirks and strncasecmp(data + start, name, length) == 0)
                    or (not quirks and memcmp(data + start, name, length) == 0)):
                return True
            start = i + 1
    return False


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
