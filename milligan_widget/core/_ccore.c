/* The compiled search core of milligan-widget: a position as packed byte arrays, move
 * generation, play and undo, keys, safe foundation moves, the solver's scores, the
 * best-first searches (the endgame's and the beam's) and the depth-first walk before the
 * last deal, each stepped from Python where the solver must act.
 *
 * It mirrors milligan_widget/engine/position.py and milligan_widget/core/python.py move for move
 * (same moves in the same order, same action records, same keys); tests/test_core.py checks
 * that for every preset. A move handle is a Python int packing the action record and the
 * move's notation (see the A_ and M_ macros). Card codes are rank * 4 + suit, plus HIDDEN for
 * a face-down card.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define HIDDEN 64
#define KING 12
#define MAXCOL 128
#define MAXMOVES 1024
#define NONE_SCORE (-1000000)

enum { C2C, C2F, DEAL, C2R, R2C, R2F, F2C, C2CELL, CELL2C, CELL2F, TURNUP, GROUP };
enum { P_RESERVE = 8, P_FOUNDATION = 9, P_ANYF = 17, P_CELL = 18, P_ANYCELL = 22, P_STOCK = 23 };

typedef uint64_t act_t;
/* bits 0-3 kind, 4 turn-up, 5-11 a, 12-18 b, 19-25 k, 26-32 run, 33-39 dst run,
   40-44 move source, 45-49 move target, 50-56 move count (0: none) */
#define A_KIND(h) ((int)((h)&15))
#define A_TURN(h) ((int)(((h) >> 4) & 1))
#define A_A(h) ((int)(((h) >> 5) & 127))
#define A_B(h) ((int)(((h) >> 12) & 127))
#define A_K(h) ((int)(((h) >> 19) & 127))
#define A_RUN(h) ((int)(((h) >> 26) & 127))
#define A_DRUN(h) ((int)(((h) >> 33) & 127))

static inline act_t mk(int kind, int a, int b, int k, int run, int drun, int msrc, int mdst,
                       int mcount) {
    return (act_t)kind | ((act_t)a << 5) | ((act_t)b << 12) | ((act_t)k << 19) |
           ((act_t)run << 26) | ((act_t)drun << 33) | ((act_t)msrc << 40) |
           ((act_t)mdst << 45) | ((act_t)mcount << 50);
}

/* Every object here starts so. The long steps (Search.endgame and .spread, Walk.step) let go
 * of the GIL while they search, so that other threads run meanwhile; `busy` is set on the
 * objects such a step works on (its search or walk, core, lost keys and noise) while it runs,
 * and Python may not touch them then (guarded_getattro, and the few ways in that do not ask
 * for an attribute). Set and cleared with the GIL held. */
#define GUARDED_HEAD                                                                         \
    PyObject_HEAD                                                                            \
    int busy;

typedef struct {
    GUARDED_HEAD
} Guarded;

static PyObject *in_use(void) {
    PyErr_SetString(PyExc_RuntimeError,
                    "this search object is in use by a search running in another thread");
    return NULL;
}

/* every attribute, methods too, is refused while the object is busy */
static PyObject *guarded_getattro(PyObject *o, PyObject *name) {
    return ((Guarded *)o)->busy ? in_use() : PyObject_GenericGetAttr(o, name);
}

/* Functions that may run without the GIL report a failure as -1 without a Python exception
 * when memory ran out (see grow()); this turns that into MemoryError once the GIL is back. */
static PyObject *failed(void) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

typedef struct {
    GUARDED_HEAD
    int ncols, nfound, ncells, decks, total;
    int king_only, reserve_mode, any_part, groups, flips, res_to_f, res_any_time, takeback;
    int fsuit[8];
    uint8_t deck[MAXCOL];
    int decklen, pos;
    uint8_t cols[8][MAXCOL];
    int len[8], runs[8], found[8];
    uint8_t reserve[MAXCOL];
    int rlen;
    int cells[4];
    PyObject *rules;
} Core;

static inline int fits(int card, int onto) { return (onto >> 1) == (((card >> 1) ^ 1) + 2); }

static int run_length(const uint8_t *c, int n) {
    if (n <= 0) return 0;
    int i = n - 1, card = c[i];
    while (i > 0) {
        int below = c[i - 1];
        if ((below >> 1) != (((card >> 1) ^ 1) + 2)) break;
        card = below;
        i--;
    }
    return n - i;
}

static int face_down(const uint8_t *c, int n) {
    int i = 0;
    while (i < n && c[i] >= HIDDEN) i++;
    return i;
}

static inline int top(const Core *s, int i) { return s->cols[i][s->len[i] - 1]; }

/* the foundation pile a card may go on now, or -1 */
static inline int fpile(const Core *s, int card) {
    int rank = card >> 2, first = (card & 3) * s->decks;
    for (int p = first; p < first + s->decks; p++)
        if (s->found[p] == rank) return p;
    return -1;
}

/* the cards that may go on a foundation now, a bit each (card code < 64; a face-down card,
   HIDDEN added, never may): fpile(s, card) >= 0 exactly for these */
static inline uint64_t homeable(const Core *s) {
    uint64_t m = 0;
    for (int p = 0; p < s->nfound; p++)
        if (s->found[p] < 13) m |= (uint64_t)1 << (s->found[p] * 4 + s->fsuit[p]);
    return m;
}

static inline int may_go_home(uint64_t home, int card) { return card < 64 && (home >> card) & 1; }

static int safe_home(const Core *s, int card) {
    if (s->groups && s->pos < s->decklen) return 0;
    int rank = card >> 2, d = s->decks, first = (card & 3) * d;
    for (int p = first; p < first + d; p++)
        if (s->found[p] < rank) return 0;
    if (rank <= 1) return 1;
    int other = (card & 2) ? 0 : 2 * d;
    for (int p = other; p < other + 2 * d; p++)
        if (s->found[p] < rank) return 0;
    return 1;
}

/* ------------------------------------------------------------------ generation */

static inline act_t turned(const Core *s, act_t a, int src, int k) {
    if (s->flips && s->len[src] > k && s->cols[src][s->len[src] - k - 1] >= HIDDEN)
        a |= 16;
    return a;
}

static inline act_t col_to_col(const Core *s, int src, int dst, int k, int mcount) {
    int run = s->runs[src];
    act_t a = k <= run ? mk(C2C, src, dst, k, run, 0, src, dst, mcount)
                       : mk(GROUP, src, dst, k, run, s->runs[dst], src, dst, mcount);
    return turned(s, a, src, k);
}

static inline act_t to_foundation(const Core *s, int i, int pile) {
    return turned(s, mk(C2F, i, pile, 1, s->runs[i], 0, i, P_ANYF, 0), i, 1);
}

typedef struct {
    act_t *out;
    int n;
} Moves;

#define ADD(m, a) ((m)->out[(m)->n++] = (a))

static void empties(const Core *s, int *empty, int *ne) {
    *ne = 0;
    for (int d = 0; d < s->ncols; d++)
        if (!s->len[d]) empty[(*ne)++] = d;
}

/* the columns a single card may go onto, as Position._columns_taking */
static int columns_taking(const Core *s, int card, const int *empty, int ne, int *out) {
    int n = 0;
    for (int d = 0; d < s->ncols; d++)
        if (s->len[d] && fits(card, top(s, d))) out[n++] = d;
    if (!s->king_only || card >> 2 == KING)
        for (int e = 0; e < ne; e++) out[n++] = empty[e];
    return n;
}

/* onto[v]: the columns (a bit each) whose top card c has c >> 1 == v, so that the columns a
   card fits on are onto[((card >> 1) ^ 1) + 2] (see fits), lowest first as a loop over them */
static void tops_by_value(const Core *s, uint8_t *onto) {
    memset(onto, 0, 64);
    for (int d = 0; d < s->ncols; d++)
        if (s->len[d]) onto[top(s, d) >> 1] |= (uint8_t)(1 << d);
}

static void gen_runs_from(const Core *s, int i, const int *empty, int ne, const uint8_t *onto,
                          Moves *m) {
    int run = s->runs[i], L = s->len[i];
    const uint8_t *col = s->cols[i];
    for (int k = 1; k <= run; k++) {
        int card = col[L - k];
        for (int d = 0, bits = onto[((card >> 1) ^ 1) + 2]; bits; d++, bits >>= 1)
            if (bits & 1) ADD(m, col_to_col(s, i, d, k, 0));
    }
    if (!ne) return;
    if (s->king_only) {
        if (col[L - run] >> 2 == KING)
            for (int e = 0; e < ne; e++) ADD(m, col_to_col(s, i, empty[e], run, 0));
    } else {
        for (int e = 0; e < ne; e++)
            for (int k = 1; k <= run; k++)
                ADD(m, col_to_col(s, i, empty[e], k, k == run ? 0 : k));
    }
}

static void gen_groups_from(const Core *s, int i, const int *empty, int ne, Moves *m) {
    int L = s->len[i];
    const uint8_t *col = s->cols[i];
    int up = L - face_down(col, L);
    int order[8], no = 0, cnt[8] = {0};
    uint8_t ks[8][MAXCOL];
    for (int k = 1; k <= up; k++) {
        int card = col[L - k];
        for (int d = 0; d < s->ncols; d++)
            if (d != i && s->len[d] && fits(card, top(s, d))) {
                if (!cnt[d]) order[no++] = d;
                ks[d][cnt[d]++] = (uint8_t)k;
            }
    }
    for (int j = 0; j < no; j++) {
        int d = order[j];
        for (int t = 0; t < cnt[d]; t++)
            ADD(m, col_to_col(s, i, d, ks[d][t], cnt[d] == 1 ? 0 : ks[d][t]));
    }
    for (int e = 0; e < ne; e++)
        for (int k = 1; k <= up; k++)
            if (!s->king_only || col[L - k] >> 2 == KING)
                ADD(m, col_to_col(s, i, empty[e], k, k == up ? 0 : k));
}

static void gen_from_reserve(const Core *s, const int *empty, int ne, Moves *m) {
    int size = s->rlen, lowest = s->any_part ? 1 : size;
    const uint8_t *r = s->reserve;
    for (int k = lowest; k <= size; k++) {
        int card = r[size - k];
        for (int d = 0; d < s->ncols; d++) {
            if (!s->len[d] || !fits(card, top(s, d))) continue;
            int onto = top(s, d), kk = (onto >> 2) - (r[size - 1] >> 2);
            if (kk >= 1 && kk <= size && fits(r[size - kk], onto))
                ADD(m, mk(R2C, d, 0, kk, 0, 0, P_RESERVE, d, 0));
        }
    }
    if (ne) {
        if (s->any_part && !s->king_only) {
            for (int e = 0; e < ne; e++)
                for (int k = 1; k <= size; k++)
                    ADD(m, mk(R2C, empty[e], 0, k, 0, 0, P_RESERVE, empty[e], k == size ? 0 : k));
        } else if (!s->king_only || r[0] >> 2 == KING) {
            for (int e = 0; e < ne; e++)
                ADD(m, mk(R2C, empty[e], 0, size, 0, 0, P_RESERVE, empty[e], 0));
        }
    }
    if (s->res_to_f && (s->any_part || size == 1)) {
        int pile = fpile(s, r[size - 1]);
        if (pile >= 0) ADD(m, mk(R2F, pile, 0, 0, 0, 0, P_RESERVE, P_ANYF, 0));
    }
}

static void gen_cells(const Core *s, const int *empty, int ne, Moves *m) {
    int free_cell = -1, targets[16];
    for (int c = 0; c < s->ncells; c++)
        if (s->cells[c] < 0) {
            free_cell = c;
            break;
        }
    if (free_cell >= 0)
        for (int i = 0; i < s->ncols; i++)
            if (s->len[i])
                ADD(m, turned(s, mk(C2CELL, i, free_cell, 1, s->runs[i], 0, i, P_ANYCELL, 0), i,
                              1));
    for (int c = 0; c < s->ncells; c++) {
        int card = s->cells[c];
        if (card < 0) continue;
        int nt = columns_taking(s, card, empty, ne, targets);
        for (int t = 0; t < nt; t++)
            ADD(m, mk(CELL2C, c, targets[t], 0, 0, 0, P_CELL + c, targets[t], 0));
        int pile = fpile(s, card);
        if (pile >= 0) ADD(m, mk(CELL2F, c, pile, 0, 0, 0, P_CELL + c, P_ANYF, 0));
    }
}

static void gen_rare(const Core *s, const int *empty, int ne, Moves *m) {
    if (s->rlen) {
        gen_from_reserve(s, empty, ne, m);
    } else if (s->reserve_mode && (s->res_any_time || s->pos >= s->decklen)) {
        int most = s->reserve_mode == 1 ? 1 : 99;
        for (int i = 0; i < s->ncols; i++) {
            int run = s->runs[i];
            for (int k = 1; k <= (run < most ? run : most); k++)
                ADD(m, turned(s, mk(C2R, i, 0, k, run, 0, i, P_RESERVE, k == 1 ? 0 : k), i, k));
        }
    }
    if (s->ncells) gen_cells(s, empty, ne, m);
    if (s->takeback == 1 || (s->takeback == 2 && s->pos >= s->decklen)) {
        int targets[16];
        for (int p = 0; p < s->nfound; p++) {
            if (!s->found[p]) continue;
            int card = (s->found[p] - 1) * 4 + s->fsuit[p];
            int nt = columns_taking(s, card, empty, ne, targets);
            for (int t = 0; t < nt; t++)
                ADD(m, mk(F2C, p, targets[t], 0, 0, 0, P_FOUNDATION + p, targets[t], 0));
        }
    }
}

static int deal_count(const Core *s) {
    int left = s->decklen - s->pos;
    return left < s->ncols ? left : s->ncols;
}

static int generate(const Core *s, act_t *out) {
    Moves m = {out, 0};
    int empty[8], ne;
    uint8_t onto[64];
    empties(s, empty, &ne);
    if (!s->groups) tops_by_value(s, onto);
    uint64_t home = homeable(s);
    for (int i = 0; i < s->ncols; i++) {
        if (!s->len[i]) continue;
        if (may_go_home(home, top(s, i))) ADD(&m, to_foundation(s, i, fpile(s, top(s, i))));
        if (s->groups)
            gen_groups_from(s, i, empty, ne, &m);
        else
            gen_runs_from(s, i, empty, ne, onto, &m);
    }
    if (s->pos < s->decklen) ADD(&m, mk(DEAL, deal_count(s), 0, 0, 0, 0, P_STOCK, P_STOCK, 0));
    if (s->reserve_mode || s->ncells || s->takeback) gen_rare(s, empty, ne, &m);
    return m.n;
}

/* ------------------------------------------------------------------ doing and undoing */

/* copy n bytes sixteen at a time: up to 15 bytes past n are read and written too, so both
   sides need that room (a column's row of MAXCOL holds any column; buffers of 512 any key
   or snapshot with room to spare) */
static inline void copy_padded(uint8_t *to, const uint8_t *from, int n) {
    for (int i = 0; i < n; i += 16) memcpy(to + i, from + i, 16);
}

/* k cards from one pile (a column's row or the reserve, MAXCOL bytes each) to another */
static inline void move_cards(uint8_t *from, int *flen, uint8_t *to, int *tlen, int k) {
    if (k <= 16 && *tlen + 16 <= MAXCOL && *flen - k + 16 <= MAXCOL)
        memcpy(to + *tlen, from + *flen - k, 16); /* what lies past the k cards is not read */
    else
        memcpy(to + *tlen, from + *flen - k, (size_t)k);
    *tlen += k;
    *flen -= k;
}

static inline void after_leaving(Core *s, int src, int run, int k) {
    s->runs[src] = run > k ? run - k : run_length(s->cols[src], s->len[src]);
}

static void push_card(Core *s, int dst, int card) {
    int L = s->len[dst];
    s->runs[dst] = L && fits(card, s->cols[dst][L - 1]) ? s->runs[dst] + 1 : 1;
    s->cols[dst][s->len[dst]++] = (uint8_t)card;
}

static int pop_card(Core *s, int src) {
    int card = s->cols[src][--s->len[src]];
    s->runs[src] = s->runs[src] > 1 ? s->runs[src] - 1 : run_length(s->cols[src], s->len[src]);
    return card;
}

static void apply(Core *s, act_t h) {
    int a = A_A(h), b = A_B(h), k = A_K(h), run = A_RUN(h);
    switch (A_KIND(h)) {
    case C2C:
        s->runs[b] = s->len[b] ? s->runs[b] + k : k;
        move_cards(s->cols[a], &s->len[a], s->cols[b], &s->len[b], k);
        after_leaving(s, a, run, k);
        break;
    case C2F:
        s->len[a]--;
        s->found[b]++;
        after_leaving(s, a, run, 1);
        break;
    case DEAL:
        for (int i = 0; i < a; i++) push_card(s, i, s->deck[s->pos + i]);
        s->pos += a;
        break;
    case C2R:
        s->rlen = 0;
        move_cards(s->cols[a], &s->len[a], s->reserve, &s->rlen, k);
        after_leaving(s, a, run, k);
        break;
    case R2C:
        s->runs[a] = s->len[a] ? s->runs[a] + k : k;
        move_cards(s->reserve, &s->rlen, s->cols[a], &s->len[a], k);
        break;
    case R2F:
        s->rlen--;
        s->found[a]++;
        break;
    case F2C:
        s->found[a]--;
        push_card(s, b, s->found[a] * 4 + s->fsuit[a]);
        break;
    case C2CELL:
        s->cells[b] = s->cols[a][--s->len[a]];
        after_leaving(s, a, run, 1);
        break;
    case CELL2C:
        push_card(s, b, s->cells[a]);
        s->cells[a] = -1;
        break;
    case CELL2F:
        s->cells[a] = -1;
        s->found[b]++;
        break;
    case GROUP:
        move_cards(s->cols[a], &s->len[a], s->cols[b], &s->len[b], k);
        s->runs[b] = run_length(s->cols[b], s->len[b]);
        s->runs[a] = run_length(s->cols[a], s->len[a]);
        break;
    }
    if (A_TURN(h)) {
        s->cols[a][s->len[a] - 1] -= HIDDEN;
        s->runs[a] = 1;
    }
}

static void unapply(Core *s, act_t h) {
    int a = A_A(h), b = A_B(h), k = A_K(h), run = A_RUN(h);
    if (A_TURN(h)) s->cols[a][s->len[a] - 1] += HIDDEN;
    switch (A_KIND(h)) {
    case C2C:
        move_cards(s->cols[b], &s->len[b], s->cols[a], &s->len[a], k);
        s->runs[b] -= k;
        s->runs[a] = run;
        break;
    case C2F:
        s->found[b]--;
        s->cols[a][s->len[a]++] = (uint8_t)(s->found[b] * 4 + s->fsuit[b]);
        s->runs[a] = run;
        break;
    case DEAL:
        for (int i = 0; i < a; i++) pop_card(s, i);
        s->pos -= a;
        break;
    case C2R:
        move_cards(s->reserve, &s->rlen, s->cols[a], &s->len[a], s->rlen);
        s->runs[a] = run;
        break;
    case R2C:
        move_cards(s->cols[a], &s->len[a], s->reserve, &s->rlen, k);
        s->runs[a] -= k;
        break;
    case R2F:
        s->found[a]--;
        s->reserve[s->rlen++] = (uint8_t)(s->found[a] * 4 + s->fsuit[a]);
        break;
    case F2C:
        pop_card(s, b);
        s->found[a]++;
        break;
    case C2CELL:
        s->cols[a][s->len[a]++] = (uint8_t)s->cells[b];
        s->cells[b] = -1;
        s->runs[a] = run;
        break;
    case CELL2C:
        s->cells[a] = pop_card(s, b);
        break;
    case CELL2F:
        s->found[b]--;
        s->cells[a] = s->found[b] * 4 + s->fsuit[b];
        break;
    case GROUP:
        move_cards(s->cols[b], &s->len[b], s->cols[a], &s->len[a], k);
        s->runs[a] = run;
        s->runs[b] = A_DRUN(h);
        break;
    }
}

/* The first safe foundation move (the rule of Game.safe_foundation_moves) into *out: 1 if
   there is one */
static int next_auto(const Core *s, act_t *out) {
    act_t h = 0;
    int found = 0;
    uint64_t home = homeable(s);
    for (int i = 0; i < s->ncols && !found; i++) {
        if (!s->len[i] || !may_go_home(home, top(s, i))) continue;
        int card = top(s, i);
        if (safe_home(s, card)) {
            h = to_foundation(s, i, fpile(s, card));
            found = 1;
        }
    }
    if (!found && s->rlen && s->res_to_f && (s->any_part || s->rlen == 1)) {
        int card = s->reserve[s->rlen - 1], pile = fpile(s, card);
        if (pile >= 0 && safe_home(s, card)) {
            h = mk(R2F, pile, 0, 0, 0, 0, P_RESERVE, P_ANYF, 0);
            found = 1;
        }
    }
    for (int c = 0; c < s->ncells && !found; c++) {
        int card = s->cells[c];
        if (card < 0) continue;
        int pile = fpile(s, card);
        if (pile >= 0 && safe_home(s, card)) {
            h = mk(CELL2F, c, pile, 0, 0, 0, P_CELL + c, P_ANYF, 0);
            found = 1;
        }
    }
    *out = h;
    return found;
}

/* Play safe foundation moves until none is left; the handles played go to out; returns how
   many. */
static int auto_moves(Core *s, act_t *out) {
    int n = 0;
    act_t h;
    while (next_auto(s, &h)) {
        apply(s, h);
        out[n++] = h;
    }
    return n;
}

/* auto_moves after move h from a position where none was due ("settled"): a move between
   columns changes no foundation, and of the tops only the card it uncovers is new (the
   moved cards' top was a top before), so nothing goes home unless that card can; then, or
   after any other move, auto_moves as ever. */
static int auto_moves_after(Core *s, act_t h, int settled, act_t *out) {
    int kind = A_KIND(h), src = A_A(h);
    if (settled && (kind == C2C || kind == GROUP)) {
        if (!s->len[src]) return 0;
        int card = top(s, src);
        if (card >= HIDDEN || fpile(s, card) < 0 || !safe_home(s, card)) return 0;
    }
    return auto_moves(s, out);
}

/* ------------------------------------------------------------------ measures */

static int cards_home(const Core *s) {
    int n = 0;
    for (int p = 0; p < s->nfound; p++) n += s->found[p];
    return n;
}

/* the shallowest depth of each card code a foundation needs next: depth[code] starts at 99
   for those, -1 for the others (which stay -1: the minimum is taken for every card, with no
   branch) */
static inline void needed_depths(const Core *s, int8_t *depth) {
    memset(depth, -1, 64);
    for (int p = 0; p < s->nfound; p++)
        if (s->found[p] < 13) depth[s->found[p] * 4 + s->fsuit[p]] = 99;
}

static inline void pile_depths(const uint8_t *c, int L, int8_t *depth) {
    for (int t = 0; t < L; t++) { /* the cards above it */
        int k = c[t] & 63, d = L - 1 - t;
        depth[k] = (int8_t)(depth[k] < d ? depth[k] : d);
    }
}

static inline int sum_depths(const Core *s, const int8_t *depth) {
    int total = 0;
    for (int p = 0; p < s->nfound; p++)
        if (s->found[p] < 13) total += depth[s->found[p] * 4 + s->fsuit[p]];
    return total;
}

/* cards that do not fit on the card below them in a column (its bottom card counts); c is
   a column's row (MAXCOL bytes) */
static inline int column_breaks(const uint8_t *c, int L) {
    int n = L > 0, t = 1;
#if defined(__GNUC__) /* and clang: vector extensions, 16 cards a step, up to the row's end */
    typedef uint8_t v16 __attribute__((vector_size(16)));
    const v16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    if (L <= MAXCOL - 16)
        for (; t < L; t += 16) { /* cards t.. on the cards below them */
            v16 below, card;
            memcpy(&below, c + t - 1, 16);
            memcpy(&card, c + t, 16);
            v16 odd = (v16)((below >> 1) != (((card >> 1) ^ 1) + 2)) &
                      (v16)(lane < (uint8_t)(L - t < 16 ? L - t : 16)) & 1;
            uint64_t half[2];
            memcpy(half, &odd, 16);
            /* bytes of 0 or 1, summed by a multiply */
            n += (int)((half[0] * 0x0101010101010101ULL) >> 56) +
                 (int)((half[1] * 0x0101010101010101ULL) >> 56);
        }
#endif
    for (; t < L; t++) n += (c[t - 1] >> 1) != (((c[t] >> 1) ^ 1) + 2);
    return n;
}

static int cover_score(const Core *s) {
    /* one pass over the cards: the depth of the shallowest copy (face up or down) of each
       card a foundation needs next (in a column or the reserve) */
    int8_t depth[64];
    needed_depths(s, depth);
    for (int j = 0; j < s->ncols; j++) pile_depths(s->cols[j], s->len[j], depth);
    pile_depths(s->reserve, s->rlen, depth);
    return sum_depths(s, depth);
}

static int endgame_rank(const Core *s) { return (s->total - cards_home(s)) * 8 + cover_score(s); }

static int breaks(const Core *s) {
    int n = 0;
    for (int j = 0; j < s->ncols; j++) n += column_breaks(s->cols[j], s->len[j]);
    return n;
}

static int exposure_score(const Core *s, int card) {
    return 20 - (card >> 2) + (fpile(s, card) >= 0 ? 40 : 0);
}

static int move_score(const Core *s, act_t h, int endgame, int deal_score) {
    if (A_TURN(h)) {
        int inner = move_score(s, h & ~(act_t)16, endgame, deal_score);
        return inner == NONE_SCORE ? NONE_SCORE : inner + 15;
    }
    int kind = A_KIND(h), src = A_A(h), dst = A_B(h), k = A_K(h);
    switch (kind) {
    case DEAL:
        return deal_score;
    case C2F:
    case R2F:
        return 100;
    case R2C:
        return 30;
    case C2C:
    case GROUP: {
        int L = s->len[src];
        if (k == L) return endgame && !s->len[dst] ? NONE_SCORE : 60;
        return exposure_score(s, s->cols[src][L - k - 1] & ~HIDDEN) - (s->len[dst] ? 0 : 10);
    }
    case C2R: {
        int L = s->len[src];
        if (k == L) return s->cols[src][0] >> 2 == KING ? -30 : -20;
        return exposure_score(s, s->cols[src][L - k - 1] & ~HIDDEN) - 10;
    }
    }
    return 0;
}

/* ------------------------------------------------------------------ keys and snapshots */

/* does column i sort after column j (their bytes, then their lengths, as memcmp would)?
   Inline, as columns nearly always differ in their first card. */
static inline int column_after(const Core *s, int i, int j) {
    int li = s->len[i], lj = s->len[j], n = li < lj ? li : lj;
    const uint8_t *a = s->cols[i], *b = s->cols[j];
    for (int t = 0; t < n; t++)
        if (a[t] != b[t]) return a[t] > b[t];
    return li > lj;
}

#define CSWAP(k, i, j)                                                                       \
    do {                                                                                     \
        unsigned a_ = (k)[i], b_ = (k)[j];                                                   \
        (k)[i] = a_ < b_ ? a_ : b_;                                                          \
        (k)[j] = a_ < b_ ? b_ : a_;                                                          \
    } while (0)

/* sort 8 numbers: a sorting network of 19 compare-exchanges, no branch to mispredict */
static inline void sort8(unsigned *k) {
    CSWAP(k, 0, 2); CSWAP(k, 1, 3); CSWAP(k, 4, 6); CSWAP(k, 5, 7);
    CSWAP(k, 0, 4); CSWAP(k, 1, 5); CSWAP(k, 2, 6); CSWAP(k, 3, 7);
    CSWAP(k, 0, 1); CSWAP(k, 2, 3); CSWAP(k, 4, 5); CSWAP(k, 6, 7);
    CSWAP(k, 2, 4); CSWAP(k, 3, 5);
    CSWAP(k, 1, 4); CSWAP(k, 3, 6);
    CSWAP(k, 1, 2); CSWAP(k, 3, 4); CSWAP(k, 5, 6);
}

/* the columns in the key's order once the stock is out: by their bottom cards (an empty
   column's is 0), the whole columns only where those are the same card (as memcmp, then
   the lengths), a stable order (as an insertion sort gives it). Sorted on bottom card,
   then number; then each run of columns with the same bottom card (rare) is put in order
   by insertion. */
static void column_order(const Core *s, int *order) {
    int nc = s->ncols;
    unsigned k[8];
    for (int j = 0; j < 8; j++)
        k[j] = j >= nc ? 0xffffu : (unsigned)(s->len[j] ? s->cols[j][0] + 1 : 0) << 3 | (unsigned)j;
    sort8(k);
    for (int i = 0; i < nc; i++) order[i] = (int)(k[i] & 7);
    for (int i = 1; i < nc; i++) {
        unsigned f = k[i] >> 3;
        if (f != k[i - 1] >> 3 || !f) continue;
        int v = order[i], j = i - 1;
        while (j >= 0 && k[j] >> 3 == f && column_after(s, order[j], v)) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = v;
    }
}

/* the key's bytes (without the cards dealt, the key's second half) into buf (of 512 bytes);
   returns the length */
static int key_bytes(const Core *s, uint8_t *buf) {
    int order[8], n = 0, nc = s->ncols;
    if (s->pos >= s->decklen)
        column_order(s, order);
    else
        for (int j = 0; j < nc; j++) order[j] = j;
    for (int j = 0; j < nc; j++) {
        const uint8_t *col = s->cols[order[j]];
        int L = s->len[order[j]];
        if (j) buf[n++] = 0xff;
        memcpy(buf + n, col, 32); /* most columns: the rest of a row, and of buf, has room */
        if (L > 32) copy_padded(buf + n + 32, col + 32, L - 32);
        n += L;
    }
    buf[n++] = '|';
    if (s->decks == 2) {
        for (int q = 0; q < 4; q++) {
            int a = s->found[2 * q], b = s->found[2 * q + 1];
            buf[n++] = (uint8_t)(a + b);
            buf[n++] = (uint8_t)(a > b ? a - b : b - a);
        }
    } else {
        for (int p = 0; p < s->nfound; p++) buf[n++] = (uint8_t)s->found[p];
    }
    copy_padded(buf + n, s->reserve, s->rlen);
    n += s->rlen;
    if (s->ncells) {
        int cs[4];
        buf[n++] = '|';
        for (int c = 0; c < s->ncells; c++) {
            int v = s->cells[c] & 0xff, j = c - 1;
            while (j >= 0 && cs[j] > v) {
                cs[j + 1] = cs[j];
                j--;
            }
            cs[j + 1] = v;
        }
        for (int c = 0; c < s->ncells; c++) buf[n++] = (uint8_t)cs[c];
    }
    return n;
}

/* a new tuple of the objects given (references stolen; NULL with the rest released if one
   is NULL), untracked by the garbage collector: the tuples made here hold only ints, bytes
   and such tuples, which cannot form a cycle (the collector untracks them so itself, at the
   first collection that traverses them; the searches make millions) */
static PyObject *atomic_tuple(int n, PyObject **items) {
    PyObject *tuple = NULL;
    for (int i = 0; i < n; i++)
        if (!items[i]) goto fail;
    if (!(tuple = PyTuple_New(n))) goto fail;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(tuple, i, items[i]);
    PyObject_GC_UnTrack(tuple);
    return tuple;
fail:
    for (int i = 0; i < n; i++) Py_XDECREF(items[i]);
    return NULL;
}

static PyObject *int_pair(long a, long b) {
    PyObject *items[2] = {PyLong_FromLong(a), PyLong_FromLong(b)};
    return atomic_tuple(2, items);
}

static PyObject *key_object(const uint8_t *buf, int n, int dealt) {
    PyObject *items[2] = {PyBytes_FromStringAndSize((const char *)buf, n), PyLong_FromLong(dealt)};
    return atomic_tuple(2, items);
}

static PyObject *make_key(const Core *s) {
    uint8_t buf[512];
    return key_object(buf, key_bytes(s, buf), s->pos);
}

/* [pos, rlen, cells..., found..., lens..., columns..., reserve...] into buf (of 512 bytes) */
static int snap_bytes(const Core *s, uint8_t *buf) {
    int n = 0;
    buf[n++] = (uint8_t)s->pos;
    buf[n++] = (uint8_t)s->rlen;
    for (int c = 0; c < s->ncells; c++) buf[n++] = (uint8_t)(s->cells[c] & 0xff);
    for (int p = 0; p < s->nfound; p++) buf[n++] = (uint8_t)s->found[p];
    for (int j = 0; j < s->ncols; j++) buf[n++] = (uint8_t)s->len[j];
    for (int j = 0; j < s->ncols; j++) {
        copy_padded(buf + n, s->cols[j], s->len[j]);
        n += s->len[j];
    }
    copy_padded(buf + n, s->reserve, s->rlen);
    n += s->rlen;
    return n;
}

static PyObject *make_snapshot(const Core *s) {
    uint8_t buf[512];
    return PyBytes_FromStringAndSize((const char *)buf, snap_bytes(s, buf));
}

/* is b (`size` bytes) a snapshot of this core's rules, that fits its arrays? */
static int snap_fits(const Core *s, const uint8_t *b, Py_ssize_t size) {
    int head = 2 + s->ncells + s->nfound, need = head + s->ncols;
    if (size < need || size > 512 || b[0] > s->decklen || b[1] > MAXCOL - 16) return 0;
    for (int j = 0; j < s->ncols; j++) {
        if (b[head + j] > MAXCOL - 16) return 0;
        need += b[head + j];
    }
    return size == need + b[1];
}

/* put a snapshot of `size` bytes at b on the board; b has 16 bytes of room past them (for
   copy_padded); runs: the columns' runs, or NULL to count them. -1 (no Python error set:
   it may run without the GIL), the board unchanged, if it is not a snapshot of this core */
static int load_snap_from(Core *s, const uint8_t *b, Py_ssize_t size, const uint8_t *runs) {
    if (!snap_fits(s, b, size)) return -1;
    int n = 0;
    s->pos = b[n++];
    s->rlen = b[n++];
    for (int c = 0; c < s->ncells; c++, n++) s->cells[c] = b[n] == 0xff ? -1 : b[n];
    for (int p = 0; p < s->nfound; p++) s->found[p] = b[n++];
    for (int j = 0; j < s->ncols; j++) s->len[j] = b[n++];
    for (int j = 0; j < s->ncols; j++) {
        copy_padded(s->cols[j], b + n, s->len[j]);
        n += s->len[j];
        s->runs[j] = runs ? runs[j] : run_length(s->cols[j], s->len[j]);
    }
    copy_padded(s->reserve, b + n, s->rlen);
    return 0;
}

static int not_a_snapshot(void) {
    PyErr_SetString(PyExc_ValueError, "not a snapshot of this core");
    return -1;
}

static int load_snap(Core *s, const uint8_t *snap, Py_ssize_t size) {
    uint8_t b[512 + 16]; /* with room past the end for copy_padded */
    if (size < 0 || size > 512) return not_a_snapshot();
    memcpy(b, snap, (size_t)size);
    return load_snap_from(s, b, size, NULL) < 0 ? not_a_snapshot() : 0;
}

/* the runs of the columns of a snapshot (one snap_fits passed) into runs */
static void snap_runs(const Core *s, const uint8_t *b, uint8_t *runs) {
    int head = 2 + s->ncells + s->nfound, n = head + s->ncols;
    for (int j = 0; j < s->ncols; j++) {
        int L = b[head + j];
        runs[j] = (uint8_t)run_length(b + n, L);
        n += L;
    }
}

static int load_snapshot(Core *s, PyObject *snap) {
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(snap, &data, &size) < 0) return -1;
    return load_snap(s, (const uint8_t *)data, size);
}

/* ------------------------------------------------------------------ the Python type */

static int get_handle(PyObject *obj, act_t *h) {
    *h = (act_t)PyLong_AsUnsignedLongLong(obj);
    if (*h != (act_t)-1 || !PyErr_Occurred()) return 0;
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "not a move handle: handles are the ints moves() gives");
    }
    return -1;
}

/* ------------------------------------------------------------------ checked play and undo
 * Python may hand play and undo any int: only a handle among this position's moves is
 * played, and only the move that led here is taken back, so that a forged or stale handle
 * raises instead of writing past a pile. */

#define PILE_ROOM (MAXCOL - 16) /* the most cards a pile is given (see Core_init) */

static int is_move_here(const Core *s, act_t h) {
    act_t out[MAXMOVES];
    int n = generate(s, out);
    for (int i = 0; i < n; i++)
        if (out[i] == h) return 1;
    return 0;
}

static int column_source(int kind) {
    return kind == C2C || kind == C2F || kind == C2R || kind == C2CELL || kind == GROUP;
}

static int deal_fits(const Core *s, int a) {
    if (a < 1 || a > s->ncols || a > s->pos) return 0;
    for (int i = 0; i < a; i++)
        if (s->len[i] < 1) return 0;
    return 1;
}

/* can unapply(s, h) run without reading or writing past a pile? (not: is it the last move) */
static int undo_in_bounds(const Core *s, act_t h) {
    int kind = A_KIND(h), a = A_A(h), b = A_B(h), k = A_K(h);
    int col_a = a < s->ncols, col_b = b < s->ncols, pile_a = a < s->nfound, pile_b = b < s->nfound;
    if (A_TURN(h) && !(column_source(kind) && col_a && s->len[a] >= 1)) return 0;
    switch (kind) {
    case C2C:
    case GROUP:
        return col_a && col_b && a != b && k >= 1 && k <= s->len[b] && s->len[a] + k <= PILE_ROOM;
    case C2F:
        return col_a && pile_b && s->found[b] >= 1 && s->len[a] < PILE_ROOM;
    case DEAL:
        return deal_fits(s, a);
    case C2R:
        return col_a && s->rlen >= 1 && s->len[a] + s->rlen <= PILE_ROOM;
    case R2C:
        return col_a && k >= 1 && k <= s->len[a] && s->rlen + k <= PILE_ROOM;
    case R2F:
        return pile_a && s->found[a] >= 1 && s->rlen < PILE_ROOM;
    case F2C:
        return pile_a && col_b && s->len[b] >= 1 && s->found[a] < 13;
    case C2CELL:
        return col_a && b < s->ncells && s->cells[b] >= 0 && s->len[a] < PILE_ROOM;
    case CELL2C:
        return a < s->ncells && col_b && s->len[b] >= 1 && s->cells[a] < 0;
    case CELL2F:
        return a < s->ncells && pile_b && s->found[b] >= 1 && s->cells[a] < 0;
    }
    return 0;
}

static int runs_counted(const Core *s) {
    for (int j = 0; j < s->ncols; j++)
        if (s->runs[j] != run_length(s->cols[j], s->len[j])) return 0;
    return 1;
}

/* take back h if it is the move that led here: a move of the position it leaves, whose play
   gives this one again; else the board is left as it was and -1 returned, ValueError set */
static int checked_undo(Core *s, act_t h) {
    uint8_t here[512], again[512], runs[8];
    int n = snap_bytes(s, here);
    for (int j = 0; j < s->ncols; j++) runs[j] = (uint8_t)s->runs[j];
    if (undo_in_bounds(s, h)) {
        unapply(s, h);
        if (runs_counted(s) && is_move_here(s, h)) {
            apply(s, h);
            int same = snap_bytes(s, again) == n && !memcmp(here, again, (size_t)n);
            for (int j = 0; j < s->ncols && same; j++) same = s->runs[j] == runs[j];
            unapply(s, h);
            if (same) return 0;
        }
        load_snap_from(s, here, n, runs);
    }
    PyErr_Format(PyExc_ValueError,
                 "handle %llu is not the move that led to this position: nothing was undone",
                 (unsigned long long)h);
    return -1;
}

static PyObject *handles_list(const act_t *hs, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(hs[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static int read_bytes(PyObject *obj, uint8_t *to, int most, int *n) {
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(obj, &data, &size) < 0) return -1;
    if (size > most) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    memcpy(to, data, (size_t)size);
    *n = (int)size;
    return 0;
}

static int Core_init(Core *s, PyObject *args, PyObject *kw) {
    PyObject *cols, *found, *stock, *reserve, *cells, *rules;
    int flags[11];
    if (!PyArg_ParseTuple(args, "(iiiiiiiiiii)OOOOOO", &flags[0], &flags[1], &flags[2],
                          &flags[3], &flags[4], &flags[5], &flags[6], &flags[7], &flags[8],
                          &flags[9], &flags[10], &cols, &found, &stock, &reserve, &cells, &rules))
        return -1;
    s->ncols = flags[0];
    s->decks = flags[1];
    s->ncells = flags[2];
    s->king_only = flags[3];
    s->reserve_mode = flags[4];
    s->any_part = flags[5];
    s->groups = flags[6];
    s->flips = flags[7];
    s->res_to_f = flags[8];
    s->res_any_time = flags[9];
    s->takeback = flags[10];
    s->nfound = 4 * s->decks;
    s->total = 52 * s->decks;
    if (s->ncols < 1 || s->ncols > 8 || s->decks < 1 || s->decks > 2 || s->ncells < 0 ||
        s->ncells > 4) {
        PyErr_SetString(PyExc_ValueError, "rules out of range");
        return -1;
    }
    for (int p = 0; p < s->nfound; p++) s->fsuit[p] = p / s->decks;
    if (!PyTuple_Check(cols) || PyTuple_GET_SIZE(cols) != s->ncols || !PyTuple_Check(cells) ||
        PyTuple_GET_SIZE(cells) != s->ncells) {
        PyErr_SetString(PyExc_ValueError, "columns or cells do not match the rules");
        return -1;
    }
    for (int j = 0; j < s->ncols; j++) {
        if (read_bytes(PyTuple_GET_ITEM(cols, j), s->cols[j], MAXCOL - 16, &s->len[j]) < 0)
            return -1;
        s->runs[j] = run_length(s->cols[j], s->len[j]);
    }
    uint8_t heights[8];
    int nh;
    if (read_bytes(found, heights, 8, &nh) < 0) return -1;
    if (nh != s->nfound) {
        PyErr_SetString(PyExc_ValueError, "foundations do not match the rules");
        return -1;
    }
    for (int p = 0; p < nh; p++) s->found[p] = heights[p];
    if (read_bytes(stock, s->deck, MAXCOL - 16, &s->decklen) < 0) return -1;
    if (read_bytes(reserve, s->reserve, MAXCOL - 16, &s->rlen) < 0) return -1;
    s->pos = 0;
    for (int c = 0; c < s->ncells; c++) {
        s->cells[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(cells, c));
        if (s->cells[c] == -1 && PyErr_Occurred()) return -1;
    }
    Py_INCREF(rules);
    Py_XSETREF(s->rules, rules);
    return 0;
}

static void Core_dealloc(Core *s) {
    Py_CLEAR(s->rules);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Core_key(Core *s, PyObject *unused) { return make_key(s); }
static PyObject *Core_snapshot(Core *s, PyObject *unused) { return make_snapshot(s); }

static PyObject *Core_restore(Core *s, PyObject *snap) {
    if (load_snapshot(s, snap) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Core_moves(Core *s, PyObject *unused) {
    act_t out[MAXMOVES];
    return handles_list(out, generate(s, out));
}

static PyObject *Core_scored_moves(Core *s, PyObject *arg) {
    int deal_score = (int)PyLong_AsLong(arg);
    if (deal_score == -1 && PyErr_Occurred()) return NULL;
    act_t out[MAXMOVES];
    int n = generate(s, out), endgame = s->pos >= s->decklen;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        int score = move_score(s, out[i], endgame, deal_score);
        if (score == NONE_SCORE) continue;
        PyObject *item = Py_BuildValue("(iK)", score, (unsigned long long)out[i]);
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

static PyObject *Core_play(Core *s, PyObject *arg) {
    act_t h;
    if (get_handle(arg, &h) < 0) return NULL;
    if (!is_move_here(s, h))
        return PyErr_Format(PyExc_ValueError,
                            "handle %llu is not a move of this position: nothing was played",
                            (unsigned long long)h);
    apply(s, h);
    Py_RETURN_NONE;
}

static PyObject *Core_undo(Core *s, PyObject *arg) {
    act_t h;
    if (get_handle(arg, &h) < 0 || checked_undo(s, h) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Core_auto_moves(Core *s, PyObject *unused) {
    act_t out[256];
    return handles_list(out, auto_moves(s, out));
}

/* all or nothing: a handle that is not the move that led there puts the board back */
static PyObject *Core_undo_all(Core *s, PyObject *list) {
    PyObject *seq = PySequence_Fast(list, "undo_all takes a list of handles");
    if (!seq) return NULL;
    uint8_t start[512], runs[8];
    int n = snap_bytes(s, start);
    for (int j = 0; j < s->ncols; j++) runs[j] = (uint8_t)s->runs[j];
    for (Py_ssize_t i = PySequence_Fast_GET_SIZE(seq) - 1; i >= 0; i--) {
        act_t h;
        if (get_handle(PySequence_Fast_GET_ITEM(seq, i), &h) < 0 || checked_undo(s, h) < 0) {
            Py_DECREF(seq);
            PyObject *type, *value, *trace;
            PyErr_Fetch(&type, &value, &trace);
            load_snap_from(s, start, n, runs);
            PyErr_Restore(type, value, trace);
            return NULL;
        }
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

static PyObject *Core_deal_move(Core *s, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(mk(DEAL, deal_count(s), 0, 0, 0, 0, P_STOCK, P_STOCK, 0));
}

static PyObject *Core_won(Core *s, PyObject *unused) {
    return PyBool_FromLong(cards_home(s) == s->total);
}
static PyObject *Core_cards_home(Core *s, PyObject *unused) {
    return PyLong_FromLong(cards_home(s));
}
static PyObject *Core_stock_left(Core *s, PyObject *unused) {
    return PyLong_FromLong(s->decklen - s->pos);
}
static PyObject *Core_rows_left(Core *s, PyObject *unused) {
    return PyLong_FromLong((s->decklen - s->pos + s->ncols - 1) / s->ncols);
}
static PyObject *Core_endgame_rank(Core *s, PyObject *unused) {
    return PyLong_FromLong(endgame_rank(s));
}
static PyObject *Core_breaks(Core *s, PyObject *unused) { return PyLong_FromLong(breaks(s)); }

static PyObject *Core_state(Core *s, PyObject *unused) {
    PyObject *cols = PyTuple_New(s->ncols);
    if (!cols) return NULL;
    for (int j = 0; j < s->ncols; j++) {
        PyObject *col = PyTuple_New(s->len[j]);
        if (!col) {
            Py_DECREF(cols);
            return NULL;
        }
        for (int t = 0; t < s->len[j]; t++)
            PyTuple_SET_ITEM(col, t, PyLong_FromLong(s->cols[j][t]));
        PyTuple_SET_ITEM(cols, j, col);
    }
    PyObject *found = PyTuple_New(s->nfound), *reserve = PyTuple_New(s->rlen),
             *cells = PyTuple_New(s->ncells), *runs = PyTuple_New(s->ncols),
             *stock = PyTuple_New(s->decklen - s->pos);
    if (!found || !reserve || !cells || !runs || !stock) {
        Py_DECREF(cols);
        Py_XDECREF(found);
        Py_XDECREF(reserve);
        Py_XDECREF(cells);
        Py_XDECREF(runs);
        Py_XDECREF(stock);
        return NULL;
    }
    for (int p = 0; p < s->nfound; p++) PyTuple_SET_ITEM(found, p, PyLong_FromLong(s->found[p]));
    for (int t = 0; t < s->rlen; t++) PyTuple_SET_ITEM(reserve, t, PyLong_FromLong(s->reserve[t]));
    for (int c = 0; c < s->ncells; c++) PyTuple_SET_ITEM(cells, c, PyLong_FromLong(s->cells[c]));
    for (int j = 0; j < s->ncols; j++) PyTuple_SET_ITEM(runs, j, PyLong_FromLong(s->runs[j]));
    for (int t = s->pos; t < s->decklen; t++)
        PyTuple_SET_ITEM(stock, t - s->pos, PyLong_FromLong(s->deck[t]));
    return Py_BuildValue("(NNiNNNN)", cols, found, s->pos, reserve, cells, runs, stock);
}

/* ------------------------------------------------------------------ expansion */

typedef struct {
    double score;
    act_t h;
} Scored;

/* ------------------------------------------------------------------ noise
 * RandomNoise(seed)() draws what random.Random(seed).random() draws (CPython's Mersenne
 * Twister, its seeding from an int and its 53-bit doubles, as in _randommodule.c), but the
 * searches draw it in C, without the GIL. */

#define MT_N 624
#define MT_M 397

typedef struct {
    GUARDED_HEAD
    int index;
    uint32_t mt[MT_N];
} RandomNoise;

static PyTypeObject RandomNoiseType;

static void mt_init(RandomNoise *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < MT_N; i++)
        r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = MT_N;
}

static void mt_init_by_array(RandomNoise *r, const uint32_t *key, int n) {
    uint32_t *mt = r->mt;
    int i = 1, j = 0;
    mt_init(r, 19650218U);
    for (int k = MT_N > n ? MT_N : n; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= n) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

static uint32_t mt_next(RandomNoise *r) {
    uint32_t *mt = r->mt, y;
    if (r->index >= MT_N) {
        for (int k = 0; k < MT_N; k++) {
            y = (mt[k] & 0x80000000U) | (mt[(k + 1) % MT_N] & 0x7fffffffU);
            mt[k] = mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ (y & 1U ? 0x9908b0dfU : 0U);
        }
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
}

static double noise_draw(RandomNoise *r) {
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int RandomNoise_init(RandomNoise *r, PyObject *args, PyObject *kw) {
    PyObject *arg;
    if (r->busy) {
        in_use();
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!", &PyLong_Type, &arg)) return -1;
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "a RandomNoise's seed is an int from 0 to 2**64 - 1");
        return -1;
    }
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    mt_init_by_array(r, key, key[1] ? 2 : 1);
    return 0;
}

static PyObject *RandomNoise_call(RandomNoise *r, PyObject *args, PyObject *kw) {
    if (r->busy) return in_use();
    if (PyTuple_GET_SIZE(args) || (kw && PyDict_GET_SIZE(kw))) {
        PyErr_SetString(PyExc_TypeError, "a RandomNoise is called without arguments");
        return NULL;
    }
    return PyFloat_FromDouble(noise_draw(r));
}

static PyTypeObject RandomNoiseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "milligan_widget.core._ccore.RandomNoise",
    .tp_basicsize = sizeof(RandomNoise),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "RandomNoise(seed)() draws what random.Random(seed).random() draws, in C.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)RandomNoise_init,
    .tp_call = (ternaryfunc)RandomNoise_call,
    .tp_getattro = guarded_getattro,
};

/* noise() added to each of the n scores, in order: a RandomNoise's drawn here (no GIL
   needed), another callable's called (the GIL held: see begin_step) */
static int add_noise(PyObject *noise, Scored *out, int n) {
    if (Py_IS_TYPE(noise, &RandomNoiseType)) {
        for (int i = 0; i < n; i++) out[i].score += noise_draw((RandomNoise *)noise);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        PyObject *r = PyObject_CallNoArgs(noise);
        if (!r) return -1;
        out[i].score += PyFloat_AsDouble(r);
        Py_DECREF(r);
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* the moves worth trying, best first (ties in generation order), each score plus noise()
   (None: no noise) */
static int ordered_moves(Core *s, int deal_score, PyObject *noise, Scored *out) {
    act_t gen[MAXMOVES];
    int n = generate(s, gen), endgame = s->pos >= s->decklen, kept = 0;
    for (int i = 0; i < n; i++) {
        int score = move_score(s, gen[i], endgame, deal_score);
        if (score == NONE_SCORE) continue;
        out[kept].score = score;
        out[kept++].h = gen[i];
    }
    if (noise != Py_None && add_noise(noise, out, kept) < 0) return -1;
    for (int i = 1; i < kept; i++) { /* insertion: stable, so ties keep generation order */
        Scored x = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].score < x.score) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = x;
    }
    return kept;
}

static PyObject *Core_expand(Core *s, PyObject *args) {
    PyObject *node, *parents, *lost, *noise, *children = NULL, *won = Py_None;
    int deal_score, break_weight, stop_at_win;
    if (!PyArg_ParseTuple(args, "OO!OiOip", &node, &PyDict_Type, &parents, &lost, &deal_score,
                          &noise, &break_weight, &stop_at_win))
        return NULL;
    if (Py_IS_TYPE(noise, &RandomNoiseType) && ((Guarded *)noise)->busy) return in_use();
    Scored moves[MAXMOVES];
    int n = ordered_moves(s, deal_score, noise, moves);
    if (n < 0 || !(children = PyList_New(0))) return NULL;
    act_t played[256];
    for (int i = 0; i < n; i++) {
        act_t h = moves[i].h;
        if (A_KIND(h) == DEAL) continue;
        apply(s, h);
        int np = auto_moves(s, played);
        PyObject *child = make_key(s);
        if (!child) goto fail;
        int known = PyDict_Contains(parents, child);
        if (!known) known = PySequence_Contains(lost, child);
        if (known < 0) {
            Py_DECREF(child);
            goto fail;
        }
        if (!known) {
            PyObject *handles = PyList_New(np + 1);
            PyObject *entry = handles ? PyTuple_Pack(2, node, handles) : NULL;
            if (handles) {
                PyList_SET_ITEM(handles, 0, PyLong_FromUnsignedLongLong(h));
                for (int t = 0; t < np; t++)
                    PyList_SET_ITEM(handles, t + 1, PyLong_FromUnsignedLongLong(played[t]));
                Py_DECREF(handles);
            }
            if (!entry || PyDict_SetItem(parents, child, entry) < 0) {
                Py_XDECREF(entry);
                Py_DECREF(child);
                goto fail;
            }
            Py_DECREF(entry);
            if (stop_at_win && cards_home(s) == s->total) {
                won = child;
                break;
            }
            int rank = endgame_rank(s) + (break_weight ? break_weight * breaks(s) : 0);
            PyObject *snap = make_snapshot(s);
            PyObject *item = snap ? Py_BuildValue("(iNN)", rank, child, snap) : NULL;
            if (!item) {
                Py_DECREF(child);
                goto fail;
            }
            child = NULL;  /* the item owns it now */
            if (PyList_Append(children, item) < 0) {
                Py_DECREF(item);
                goto fail;
            }
            Py_DECREF(item);
        } else {
            Py_DECREF(child);
        }
        while (np) unapply(s, played[--np]);
        unapply(s, h);
    }
    PyObject *result = Py_BuildValue("(ON)", won, children);
    if (won != Py_None) Py_DECREF(won);
    return result;
fail:
    Py_XDECREF(children);
    return NULL;
}

static PyTypeObject CoreType;

/* ------------------------------------------------------------------ trapped cards
 * deadlock.py's fixed point, for the rules where it applies (no reserve, cells or
 * take-back, King-only spaces, an open deal, run moves): the cards that can never leave
 * their place. Cards are numbered as there: the columns' cards bottom to top, column by
 * column, then the stock in dealing order. Its least fixed point does not depend on the
 * order the cards are visited in, so this gives the same cards as the Python. */

#define NEVER (1 << 30)
#define TMAX 128

typedef struct {
    int n, dealt_from, epochs, ncols;
    uint8_t card[TMAX], column[TMAX];
    int epoch[TMAX], below_lo[TMAX], above_lo[TMAX], above_hi[TMAX], top_hi[TMAX],
        carr_lo[TMAX], first[TMAX];
    uint8_t scarr[TMAX][64], later[TMAX][16], lbreak[TMAX][16], par[TMAX][8];
    int nscarr[TMAX], nlater[TMAX], nlbreak[TMAX], npar[TMAX];
    uint8_t need[TMAX][13][4];
    int nneed[TMAX], need_cnt[TMAX][13];
    uint8_t incol[8][TMAX], copies[64][8];
    int nincol[8], ncopies[64];
} Trap;

static int may_chain(int lower, int upper) {
    int gap = (lower >> 2) - (upper >> 2);
    return gap > 0 && ((upper >> 1) & 1) == (((lower >> 1) & 1) ^ (gap & 1));
}

static int trap_applies(const Core *s) {
    return !s->flips && !s->groups && !s->reserve_mode && !s->ncells && !s->takeback &&
           s->king_only;
}

static void trap_columns(Trap *T, const Core *s) {
    int n = 0, br[TMAX];
    for (int i = 0; i < s->ncols; i++) {
        const uint8_t *col = s->cols[i];
        int L = s->len[i], start = n, end = n + L, base = start;
        if (L) br[L - 1] = end;
        for (int j = L - 2; j >= 0; j--) br[j] = fits(col[j + 1], col[j]) ? br[j + 1] : start + j + 1;
        for (int j = 0; j < L; j++, n++) {
            if (j && !fits(col[j], col[j - 1])) base = n;
            T->card[n] = col[j];
            T->column[n] = (uint8_t)i;
            T->epoch[n] = 0;
            T->below_lo[n] = start;
            T->above_lo[n] = br[j];
            T->above_hi[n] = end;
            T->top_hi[n] = end;
            T->carr_lo[n] = base;
        }
    }
    T->dealt_from = n;
    T->epochs = 0;
    for (int k = 0; k < s->decklen - s->pos; k++, n++) {
        T->card[n] = s->deck[s->pos + k];
        T->column[n] = (uint8_t)(k % s->ncols);
        T->epoch[n] = k / s->ncols + 1;
        T->below_lo[n] = n; /* nothing certainly under it: what it lands on is not known */
        T->above_lo[n] = T->above_hi[n] = 0;
        T->top_hi[n] = n + 1;
        T->carr_lo[n] = n;
        if (T->epoch[n] > T->epochs) T->epochs = T->epoch[n];
    }
    T->n = n;
    T->ncols = s->ncols;
}

static void trap_relations(Trap *T) {
    memset(T->nincol, 0, sizeof T->nincol);
    memset(T->ncopies, 0, sizeof T->ncopies);
    for (int t = 0; t < T->n; t++) {
        T->incol[T->column[t]][T->nincol[T->column[t]]++] = (uint8_t)t;
        if (T->ncopies[T->card[t]] < 8) T->copies[T->card[t]][T->ncopies[T->card[t]]++] = (uint8_t)t;
    }
    for (int t = 0; t < T->n; t++) {
        int c = T->column[t];
        T->nlater[t] = T->nlbreak[t] = 0;
        for (int q = 0; q < T->nincol[c]; q++) {
            int u = T->incol[c][q];
            if (u < T->dealt_from || u <= t || T->nlater[t] >= 16) continue;
            T->later[t][T->nlater[t]++] = (uint8_t)u;
            if (!may_chain(T->card[t], T->card[u])) T->lbreak[t][T->nlbreak[t]++] = (uint8_t)u;
        }
        T->nscarr[t] = 0;
        if (t < T->dealt_from) continue;
        int rank = T->card[t] >> 2, colour = (T->card[t] >> 1) & 1;
        for (int gap = 1; gap <= KING - rank; gap++) {
            int suit0 = (colour ^ (gap & 1)) ? 2 : 0;
            for (int suit = suit0; suit < suit0 + 2; suit++) {
                int code = (rank + gap) * 4 + suit;
                for (int q = 0; q < T->ncopies[code]; q++) {
                    int w = T->copies[code][q];
                    if (T->epoch[w] < T->epoch[t] && T->nscarr[t] < 64)
                        T->scarr[t][T->nscarr[t]++] = (uint8_t)w;
                }
            }
        }
    }
}

static inline int beneath(const Trap *T, int t, int u) { return T->below_lo[t] <= u && u < t; }

static void trap_needs(Trap *T, const Core *s) {
    int home[4] = {0, 0, 0, 0};
    for (int p = 0; p < s->nfound; p++)
        if (s->found[p] > home[s->fsuit[p]]) home[s->fsuit[p]] = s->found[p];
    for (int t = 0; t < T->n; t++) {
        int code = T->card[t], rank = code >> 2, suit = code & 3;
        T->nneed[t] = 0;
        for (int r = home[suit]; r < rank; r++) {
            int k = T->nneed[t]++, lower = r * 4 + suit;
            T->need_cnt[t][k] = 0;
            for (int q = 0; q < T->ncopies[lower]; q++) {
                int u = T->copies[lower][q];
                if (!beneath(T, t, u) && T->need_cnt[t][k] < 4) T->need[t][k][T->need_cnt[t][k]++] = (uint8_t)u;
            }
        }
        T->npar[t] = 0;
        if (rank == KING) continue;
        int other0 = (code & 2) ? 0 : 2;
        for (int other = other0; other < other0 + 2; other++) {
            int higher = (rank + 1) * 4 + other;
            for (int q = 0; q < T->ncopies[higher]; q++) {
                int u = T->copies[higher][q];
                if (!beneath(T, t, u) && T->npar[t] < 8) T->par[t][T->npar[t]++] = (uint8_t)u;
            }
        }
    }
}

static int trap_clear(const Trap *T, int t, int e) {
    for (int u = t + 1; u < T->top_hi[t]; u++)
        if (T->first[u] > e) return 0;
    for (int q = 0; q < T->nlater[t]; q++) {
        int u = T->later[t][q];
        if (T->epoch[u] <= e && T->first[u] > e) return 0;
    }
    return 1;
}

static int trap_home(const Trap *T, int t, int e) {
    if (!trap_clear(T, t, e)) return 0;
    for (int k = 0; k < T->nneed[t]; k++) {
        int any = 0;
        for (int q = 0; q < T->need_cnt[t][k] && !any; q++) any = T->first[T->need[t][k][q]] <= e;
        if (!any) return 0;
    }
    return 1;
}

static int trap_king_space(const Trap *T, int t, int e) {
    for (int c = 0; c < T->ncols; c++) {
        if (c == T->column[t]) continue;
        int empty = 1;
        for (int q = 0; q < T->nincol[c] && empty; q++) {
            int u = T->incol[c][q];
            empty = T->epoch[u] > e || T->first[u] <= e;
        }
        if (empty) return 1;
    }
    return 0;
}

static int way_out(const Trap *T, int t, int e) {
    for (int u = T->above_lo[t]; u < T->above_hi[t]; u++)
        if (T->first[u] > e) return 0;
    for (int q = 0; q < T->nlbreak[t]; q++) {
        int u = T->lbreak[t][q];
        if (T->epoch[u] <= e && e < T->first[u]) return 0;
    }
    if (trap_home(T, t, e)) return 1;
    for (int q = 0; q < T->npar[t]; q++) {
        int p = T->par[t][q];
        if (T->epoch[p] <= e && (T->first[p] <= e || trap_clear(T, p, e))) return 1;
    }
    for (int w = T->carr_lo[t]; w < t; w++)
        if (T->first[w] <= e) return 1;
    for (int q = 0; q < T->nscarr[t]; q++)
        if (T->first[T->scarr[t][q]] <= e) return 1;
    return T->card[t] >> 2 == KING && trap_king_space(T, t, e);
}

/* the trapped cards' numbers into T->first (NEVER); returns how many. T is the caller's
   (about 35 kB): two threads may test at once */
static int trapped_count(Trap *T, const Core *s) {
    if (!trap_applies(s) || s->total + 8 > TMAX) return 0;
    trap_columns(T, s);
    trap_relations(T);
    trap_needs(T, s);
    for (int t = 0; t < T->n; t++) T->first[t] = NEVER;
    for (int e = 0; e <= T->epochs; e++) {
        for (int changed = 1; changed;) {
            changed = 0;
            for (int t = T->n - 1; t >= 0; t--)
                if (T->first[t] > e && e >= T->epoch[t] && way_out(T, t, e)) {
                    T->first[t] = e;
                    changed = 1;
                }
        }
    }
    int count = 0;
    for (int t = 0; t < T->n; t++) count += T->first[t] == NEVER;
    return count;
}

static PyObject *Core_trapped(Core *s, PyObject *unused) {
    Trap *T = PyMem_RawMalloc(sizeof(Trap));
    if (!T) return PyErr_NoMemory();
    int count = trapped_count(T, s);
    PyMem_RawFree(T);
    return PyBool_FromLong(count > 0);
}

static PyObject *trapped_list(const Trap *T, int count) {
    PyObject *list = PyList_New(0);
    if (!list || !count) return list;
    for (int t = 0; t < T->n; t++) {
        if (T->first[t] != NEVER) continue;
        PyObject *item = Py_BuildValue("(iii)", T->card[t], T->column[t], T->epoch[t]);
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

static PyObject *Core_trapped_cards(Core *s, PyObject *unused) {
    Trap *T = PyMem_RawMalloc(sizeof(Trap));
    if (!T) return PyErr_NoMemory();
    PyObject *list = trapped_list(T, trapped_count(T, s));
    PyMem_RawFree(T);
    return list;
}

/* room for `need` items of `item` bytes in *buf (of *cap); -1 if memory ran out. It runs
   without the GIL too: the raw allocator (buffers grown here are freed with
   PyMem_RawFree), and no Python error set (failed() sets it once the GIL is back) */
static int grow(void **buf, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 0;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) cap2 *= 2;
    void *p = PyMem_RawRealloc(*buf, cap2 * item);
    if (!p) return -1;
    *buf = p;
    *cap = cap2;
    return 0;
}

#define HASH_LANE(h, b, k, shift)                                                            \
    do {                                                                                     \
        uint64_t w_;                                                                         \
        memcpy(&w_, (b), 8);                                                                 \
        h = (h ^ w_) * (k);                                                                  \
        h ^= h >> (shift);                                                                   \
    } while (0)

#define HASH_STEP(h, b)                                                                      \
    do {                                                                                     \
        HASH_LANE(h[0], (b), 0xff51afd7ed558ccdULL, 32);                                     \
        HASH_LANE(h[1], (b) + 8, 0xc4ceb9fe1a85ec53ULL, 29);                                 \
        HASH_LANE(h[2], (b) + 16, 0x9e3779b97f4a7c15ULL, 31);                                \
        HASH_LANE(h[3], (b) + 24, 0xd6e8feb86659fd93ULL, 30);                                \
    } while (0)

static uint64_t hash_bytes(const uint8_t *b, int n) {
    /* 32 bytes a step in four independent lanes, multiply and fold, the last 32 bytes read
       again where n is not a multiple (keys are about 100 bytes); then the lanes mixed */
    uint64_t h[4] = {0x9e3779b97f4a7c15ULL ^ (uint64_t)n, 0x632be59bd9b4e019ULL,
                     0x85ebca6b2545f491ULL, 0x27d4eb2f165667c5ULL};
    if (n >= 32) {
        int i = 0;
        for (; i + 32 <= n; i += 32) HASH_STEP(h, b + i);
        if (i < n) HASH_STEP(h, b + n - 32);
    } else {
        for (int i = 0; i < n; i++) h[0] = (h[0] ^ b[i]) * 0x100000001b3ULL;
    }
    uint64_t x = (h[0] ^ (h[1] * 0x9e3779b97f4a7c15ULL)) + (h[2] ^ (h[3] * 0xc2b2ae3d27d4eb4fULL));
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

/* ------------------------------------------------------------------ tables of keys
 * An open-addressing hash table of keys (linear probing, at most half full), the search
 * tree's and a KeySet's. Each key is a record in one growing buffer: [hash u64][length u32]
 * [value i32][the key's bytes, padded to 8]. A slot holds the record's offset / 8 + 1 in its
 * low 32 bits (0: an empty slot) and the hash's high 32 bits, so that a probe reads a record
 * only where those match: most probes touch the slots alone. */

#define NO_RECORD ((size_t)-1)
#define REC_HEAD 16
#define TAG_MASK 0xffffffff00000000ULL

typedef struct {
    uint64_t *slots;
    size_t nslots, count;
    uint8_t *recs;
    size_t rlen, rcap;
} Table;

static void table_release(Table *t) {
    PyMem_RawFree(t->slots);
    PyMem_RawFree(t->recs);
    memset(t, 0, sizeof *t);
}

static inline uint32_t rec_len(const Table *t, size_t r) {
    uint32_t n;
    memcpy(&n, t->recs + r + 8, 4);
    return n;
}

static inline uint64_t rec_hash(const Table *t, size_t r) {
    uint64_t h;
    memcpy(&h, t->recs + r, 8);
    return h;
}

static inline int rec_value(const Table *t, size_t r) {
    int32_t v;
    memcpy(&v, t->recs + r + 12, 4);
    return v;
}

static inline const uint8_t *rec_key(const Table *t, size_t r) { return t->recs + r + REC_HEAD; }

static inline size_t rec_size(uint32_t n) { return REC_HEAD + (((size_t)n + 7) & ~(size_t)7); }

/* the record of a key, or NO_RECORD */
static size_t table_find(const Table *t, const uint8_t *key, int n, uint64_t h) {
    if (!t->nslots) return NO_RECORD;
    size_t mask = t->nslots - 1;
    uint64_t tag = h & TAG_MASK;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint64_t v = t->slots[i];
        if (!v) return NO_RECORD;
        if ((v & TAG_MASK) != tag) continue;
        size_t r = (size_t)((v & 0xffffffffu) - 1) * 8;
        if (rec_len(t, r) == (uint32_t)n && !memcmp(rec_key(t, r), key, (size_t)n)) return r;
    }
}

static inline void table_place(uint64_t *slots, size_t nslots, uint64_t h, size_t r) {
    size_t mask = nslots - 1, i = h & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = (h & TAG_MASK) | (uint64_t)(r / 8 + 1);
}

static int table_rehash(Table *t) {
    size_t n = t->nslots ? t->nslots * 2 : 256; /* small: most searches are short */
    uint64_t *slots = PyMem_RawCalloc(n, sizeof(uint64_t));
    if (!slots) return -1; /* as grow() */
    for (size_t r = 0; r < t->rlen; r += rec_size(rec_len(t, r)))
        table_place(slots, n, rec_hash(t, r), r);
    PyMem_RawFree(t->slots);
    t->slots = slots;
    t->nslots = n;
    return 0;
}

/* add a key known not to be in the table; its record, or NO_RECORD when memory ran out
   (as grow()) */
static size_t table_add(Table *t, const uint8_t *key, int n, uint64_t h, int value) {
    if ((t->count + 1) * 2 > t->nslots && table_rehash(t) < 0) return NO_RECORD;
    size_t r = t->rlen, size = rec_size((uint32_t)n);
    if ((r + size) / 8 >= 0xffffffffu) return NO_RECORD;
    if (grow((void **)&t->recs, &t->rcap, r + size, 1) < 0) return NO_RECORD;
    uint8_t *p = t->recs + r;
    uint32_t len = (uint32_t)n;
    int32_t v = value;
    memcpy(p, &h, 8);
    memcpy(p + 8, &len, 4);
    memcpy(p + 12, &v, 4);
    memcpy(p + REC_HEAD, key, (size_t)n);
    t->rlen += size;
    t->count++;
    table_place(t->slots, t->nslots, h, r);
    return r;
}

/* ------------------------------------------------------------------ best-first search
 * Search mirrors core/python.py's PySearch: a tree of the positions reached (a hash table
 * of keys, each with its parent and the handles from it) and a heap of positions to expand,
 * lowest (rank, order pushed) first. A position waiting in the heap is not stored: it is
 * its parent's snapshot (kept once the parent is expanded) plus the handles from it. */

enum { S_TICK, S_WIN, S_LOST, S_OPEN, S_DONE };

typedef struct {
    size_t key, h_off, snap_off; /* key: its record in the tree's table; snap_off: (size_t)-1
                                    until stored */
    int parent, nh, snap_len;
} Entry;

typedef struct {
    int rank, pushed, node;
} HeapItem;

typedef struct {
    uint64_t hash;
    size_t key, hs; /* offsets of its key and its handles (the move, then its auto moves) */
    int klen, nh;
} Child;

/* a position a spread's deal reached, kept without the GIL till the step ends (flush_dealt):
   its rank, its entry and its snapshot (in dealt_snaps) */
typedef struct {
    int rank, entry, snap_len;
    size_t snap_off;
} Dealt;

typedef struct {
    GUARDED_HEAD
    Core *core;
    PyObject *lost, *noise, *reached;
    int deal_score;
    Entry *entries;
    int nentries, cap_entries;
    Table tree; /* the keys, each record's value its entry */
    act_t *handles;
    size_t h_len, h_cap;
    uint8_t *snaps;
    size_t s_len, s_cap;
    HeapItem *heap;
    int heap_n, heap_cap;
    int pushed, pending, won;
    long left;
    /* the children of the position being expanded: their keys and the handles to them */
    Child *kids;
    size_t kids_cap;
    uint8_t *kid_keys;
    size_t kid_keys_cap;
    act_t *kid_hs;
    size_t kid_hs_cap;
    int dealt_rank, dealt_snap_len; /* the position a deal reaches from the node (a spread's) */
    uint8_t dealt_snap[512];
    Dealt *dealt; /* the positions reached this step, for `reached` */
    size_t ndealt, dealt_cap;
    uint8_t *dealt_snaps;
    size_t ds_len, ds_cap;
} Search;

static PyTypeObject SearchType;

/* the entry of a key (bytes plus the cards dealt as a last byte), or -1 */
static int find(const Search *t, const uint8_t *key, int n, uint64_t h) {
    size_t r = table_find(&t->tree, key, n, h);
    return r == NO_RECORD ? -1 : rec_value(&t->tree, r);
}

static int add_entry(Search *t, const uint8_t *key, int n, uint64_t h, int parent,
                     const act_t *hs, int nh) {
    size_t cap = (size_t)t->cap_entries;
    if (grow((void **)&t->entries, &cap, (size_t)t->nentries + 1, sizeof(Entry)) < 0 ||
        grow((void **)&t->handles, &t->h_cap, t->h_len + (size_t)nh, sizeof(act_t)) < 0)
        return -1;
    t->cap_entries = (int)cap;
    size_t r = table_add(&t->tree, key, n, h, t->nentries);
    if (r == NO_RECORD) return -1;
    int e = t->nentries++;
    Entry *x = &t->entries[e];
    x->key = r;
    x->parent = parent;
    x->h_off = t->h_len;
    x->nh = nh;
    x->snap_off = (size_t)-1;
    x->snap_len = 0;
    if (nh) memcpy(t->handles + t->h_len, hs, (size_t)nh * sizeof(act_t)); /* the root has none */
    t->h_len += (size_t)nh;
    return e;
}

/* keep entry e's snapshot (b, n bytes: the board's, or one snap_fits passed), then its
   columns' runs (the board's with `board`, else counted), with 16 bytes of room past the
   end of what is kept: load_entry reads it in place */
static int store_snap(Search *t, int e, const uint8_t *b, int n, int board) {
    const Core *s = t->core;
    size_t at = t->s_len, size = (size_t)n + (size_t)s->ncols;
    if (grow((void **)&t->snaps, &t->s_cap, at + size + 16, 1) < 0) return -1;
    memcpy(t->snaps + at, b, (size_t)n);
    uint8_t *runs = t->snaps + at + n;
    if (board) {
        for (int j = 0; j < s->ncols; j++) runs[j] = (uint8_t)s->runs[j];
    } else {
        snap_runs(s, b, runs);
    }
    t->entries[e].snap_off = at;
    t->entries[e].snap_len = n;
    t->s_len += size;
    return 0;
}

static PyObject *entry_key(const Search *t, int e) {
    size_t r = t->entries[e].key;
    const uint8_t *k = rec_key(&t->tree, r);
    int n = (int)rec_len(&t->tree, r);
    return key_object(k, n - 1, k[n - 1]);
}

/* a Python key (bytes, dealt) as the table's bytes */
static int key_from_object(PyObject *key, uint8_t *buf) {
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 2 ||
        !PyBytes_Check(PyTuple_GET_ITEM(key, 0))) {
        PyErr_SetString(PyExc_TypeError, "a key is (bytes, cards dealt)");
        return -1;
    }
    PyObject *b = PyTuple_GET_ITEM(key, 0);
    Py_ssize_t n = PyBytes_GET_SIZE(b);
    long dealt = PyLong_AsLong(PyTuple_GET_ITEM(key, 1));
    if (dealt == -1 && PyErr_Occurred()) return -1;
    if (n > 500 || dealt < 0 || dealt > 255) {
        PyErr_SetString(PyExc_ValueError, "not a key of a position: too long, or too many dealt");
        return -1;
    }
    memcpy(buf, PyBytes_AS_STRING(b), (size_t)n);
    buf[n] = (uint8_t)dealt;
    return (int)n + 1;
}

/* ------------------------------------------------------------------ a set of keys
 * The positions proven lost, shared by the runs of a solve: as a Python set of keys
 * (bytes, cards dealt), but the compiled searches look keys up without making them. */

typedef struct {
    GUARDED_HEAD
    Table t;
} KeySet;

static PyTypeObject KeySetType;

/* the table of a KeySet of lost keys, NULL for a Python set (a pointer compare: no call
   that needs the GIL) */
static inline Table *keys_of(PyObject *lost) {
    return Py_IS_TYPE(lost, &KeySetType) ? &((KeySet *)lost)->t : NULL;
}

static inline int keyset_find(const Table *k, const uint8_t *key, int n, uint64_t h) {
    return table_find(k, key, n, h) != NO_RECORD;
}

static int keyset_add(Table *k, const uint8_t *key, int n, uint64_t h) {
    if (table_find(k, key, n, h) != NO_RECORD) return 0;
    return table_add(k, key, n, h, 0) == NO_RECORD ? -1 : 0;
}

static int KeySet_contains(KeySet *k, PyObject *key) {
    if (k->busy) {
        in_use();
        return -1;
    }
    uint8_t buf[512];
    int n = key_from_object(key, buf);
    if (n < 0) {
        PyErr_Clear();
        return 0; /* not a key: not in the set */
    }
    return keyset_find(&k->t, buf, n, hash_bytes(buf, n));
}

static PyObject *KeySet_add(KeySet *k, PyObject *key) {
    uint8_t buf[512];
    if (k->busy) return in_use(); /* also for update, in a loop of adds */
    int n = key_from_object(key, buf);
    if (n < 0) return NULL;
    if (keyset_add(&k->t, buf, n, hash_bytes(buf, n)) < 0) return failed();
    Py_RETURN_NONE;
}

static PyObject *KeySet_update(KeySet *k, PyObject *keys) {
    PyObject *it = PyObject_GetIter(keys), *key;
    if (!it) return NULL;
    while ((key = PyIter_Next(it))) {
        PyObject *done = KeySet_add(k, key);
        Py_DECREF(key);
        if (!done) {
            Py_DECREF(it);
            return NULL;
        }
        Py_DECREF(done);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static Py_ssize_t KeySet_len(KeySet *k) {
    if (k->busy) {
        in_use();
        return -1;
    }
    return (Py_ssize_t)k->t.count;
}

static void KeySet_dealloc(KeySet *k) {
    table_release(&k->t);
    Py_TYPE(k)->tp_free((PyObject *)k);
}

static PySequenceMethods KeySet_as_sequence = {
    .sq_length = (lenfunc)KeySet_len,
    .sq_contains = (objobjproc)KeySet_contains,
};

static PyMethodDef KeySet_methods[] = {
    {"add", (PyCFunction)KeySet_add, METH_O, "Add a key (bytes, cards dealt)."},
    {"update", (PyCFunction)KeySet_update, METH_O, "Add every key of an iterable."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KeySetType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "milligan_widget.core._ccore.KeySet",
    .tp_basicsize = sizeof(KeySet),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A set of search keys (bytes, cards dealt): add, update, in, len.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)KeySet_dealloc,
    .tp_getattro = guarded_getattro,
    .tp_as_sequence = &KeySet_as_sequence,
    .tp_methods = KeySet_methods,
};

static inline int heap_less(const HeapItem *a, const HeapItem *b) {
    return a->rank < b->rank || (a->rank == b->rank && a->pushed < b->pushed);
}

static int heap_push(Search *t, int rank, int node) {
    size_t cap = (size_t)t->heap_cap;
    if (grow((void **)&t->heap, &cap, (size_t)t->heap_n + 1, sizeof(HeapItem)) < 0) return -1;
    t->heap_cap = (int)cap;
    HeapItem item = {rank, ++t->pushed, node};
    int i = t->heap_n++;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (!heap_less(&item, &t->heap[up])) break;
        t->heap[i] = t->heap[up];
        i = up;
    }
    t->heap[i] = item;
    return 0;
}

static HeapItem heap_pop(Search *t) {
    HeapItem top = t->heap[0], last = t->heap[--t->heap_n];
    int i = 0, n = t->heap_n;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && heap_less(&t->heap[c + 1], &t->heap[c])) c++;
        if (!heap_less(&t->heap[c], &last)) break;
        t->heap[i] = t->heap[c];
        i = c;
    }
    if (n) t->heap[i] = last;
    return top;
}

/* put the position of entry e on the board: its own snapshot, or its parent's and the
   handles from there */
static int load_entry(Search *t, int e) {
    const Entry *x = &t->entries[e];
    if (x->snap_off != (size_t)-1)
        return load_snap_from(t->core, t->snaps + x->snap_off, x->snap_len,
                              t->snaps + x->snap_off + x->snap_len);
    const Entry *p = &t->entries[x->parent];
    if (load_snap_from(t->core, t->snaps + p->snap_off, p->snap_len,
                       t->snaps + p->snap_off + p->snap_len) < 0)
        return -1;
    for (int i = 0; i < x->nh; i++) apply(t->core, t->handles[x->h_off + (size_t)i]);
    return 0;
}

/* the key of the position on the board, as the tree keeps it (the cards dealt last) into
   buf; its length */
static int tree_key(const Core *s, uint8_t *buf, uint64_t *h) {
    int n = key_bytes(s, buf);
    buf[n++] = (uint8_t)s->pos;
    *h = hash_bytes(buf, n);
    return n;
}

/* is a key (of tree_key) new: not in the tree, not lost? -1 on an error. A Python set of
   lost keys is read with the GIL held (the steps keep it then: see claim_of) */
static int key_is_new(Search *t, const uint8_t *buf, int n, uint64_t h) {
    if (find(t, buf, n, h) >= 0) return 0;
    const Table *lost = keys_of(t->lost);
    if (lost) return !keyset_find(lost, buf, n, h);
    if (!PySet_GET_SIZE(t->lost)) return 1;
    PyObject *key = key_object(buf, n - 1, buf[n - 1]);
    if (!key) return -1;
    int known = PySet_Contains(t->lost, key);
    Py_DECREF(key);
    return known < 0 ? -1 : !known;
}

static inline void prefetch_slot(const Table *k, uint64_t h) {
#if defined(__GNUC__) || defined(__clang__)
    if (k->nslots) __builtin_prefetch(&k->slots[h & (k->nslots - 1)]);
#endif
}

/* endgame_rank, plus break_weight times the breaks: one pass over the columns */
static int rank_of(const Core *s, int break_weight) {
    if (!break_weight) return endgame_rank(s);
    int8_t depth[64];
    int n = 0;
    needed_depths(s, depth);
    for (int j = 0; j < s->ncols; j++) {
        pile_depths(s->cols[j], s->len[j], depth);
        n += column_breaks(s->cols[j], s->len[j]);
    }
    pile_depths(s->reserve, s->rlen, depth);
    return (s->total - cards_home(s)) * 8 + sum_depths(s, depth) + break_weight * n;
}

/* play each move of the position on the board (but a deal) with its auto moves, and take
   them back: the children's keys and handles into t->kids, their slots in the tree and
   the lost fetched meanwhile; how many, -1 on an error. With `deal`, the position a deal
   from it reaches comes first (a beam's spread). */
static int children(Search *t, int node, const Scored *moves, int n, int deal, int break_weight) {
    Core *s = t->core;
    const Table *lost = keys_of(t->lost);
    size_t koff = 0, hoff = 0;
    int nk = 0;
    act_t due, back = 0;
    int settled = !next_auto(s, &due); /* as nearly always: the node had its auto moves */
    const Entry *x = &t->entries[node];
    if (x->parent >= 0 && x->nh == 1) { /* the node is its parent and one move, m */
        act_t m = t->handles[x->h_off];
        if ((A_KIND(m) == C2C || A_KIND(m) == GROUP) && !A_TURN(m)) back = m;
    }
    if (grow((void **)&t->kids, &t->kids_cap, (size_t)n + 1, sizeof(Child)) < 0) return -1;
    for (int i = -deal; i < n; i++) {
        act_t h = i < 0 ? mk(DEAL, deal_count(s), 0, 0, 0, 0, P_STOCK, P_STOCK, 0) : moves[i].h;
        if (i >= 0 && A_KIND(h) == DEAL) continue;
        if (grow((void **)&t->kid_keys, &t->kid_keys_cap, koff + 512, 1) < 0 ||
            grow((void **)&t->kid_hs, &t->kid_hs_cap, hoff + 256, sizeof(act_t)) < 0)
            return -1;
        act_t *hs = t->kid_hs + hoff;
        apply(s, h);
        hs[0] = h;
        Child *c = &t->kids[nk];
        c->nh = 1 + auto_moves_after(s, h, settled, hs + 1);
        if (back && c->nh == 1 && (A_KIND(h) == C2C || A_KIND(h) == GROUP) && !A_TURN(h) &&
            A_A(h) == A_B(back) && A_B(h) == A_A(back) && A_K(h) == A_K(back)) {
            /* m's cards moved straight back, nothing turned up or gone home: the parent's
               very position, in the tree: not new (its key is not worth making) */
            unapply(s, h);
            continue;
        }
        nk++;
        c->key = koff;
        c->hs = hoff;
        c->klen = tree_key(s, t->kid_keys + koff, &c->hash);
        prefetch_slot(&t->tree, c->hash);
        if (lost) prefetch_slot(lost, c->hash);
        if (i < 0) { /* nearly always new: measured now, not played again */
            t->dealt_rank = rank_of(s, break_weight);
            t->dealt_snap_len = snap_bytes(s, t->dealt_snap);
        }
        for (int np = c->nh; np;) unapply(s, hs[--np]);
        koff += ((size_t)c->klen + 7) & ~(size_t)7;
        hoff += (size_t)c->nh;
    }
    return nk;
}

/* the position dealt from a node of a spread joins the tree and the positions reached
   (rank, key, snapshot, as children() measured them: see flush_dealt) if it is new; -1 on
   an error */
static int add_dealt(Search *t, int node, const Child *c) {
    const uint8_t *key = t->kid_keys + c->key;
    int fresh = key_is_new(t, key, c->klen, c->hash);
    if (fresh <= 0) return fresh;
    int e = add_entry(t, key, c->klen, c->hash, node, t->kid_hs + c->hs, c->nh);
    size_t len = (size_t)t->dealt_snap_len;
    if (e < 0 || grow((void **)&t->dealt, &t->dealt_cap, t->ndealt + 1, sizeof(Dealt)) < 0 ||
        grow((void **)&t->dealt_snaps, &t->ds_cap, t->ds_len + len, 1) < 0)
        return -1;
    memcpy(t->dealt_snaps + t->ds_len, t->dealt_snap, len);
    t->dealt[t->ndealt++] = (Dealt){t->dealt_rank, e, (int)len, t->ds_len};
    t->ds_len += len;
    return 0;
}

/* the positions dealt this step join `reached` as (rank, key, snapshot), in order (the GIL
   held); -1 on an error */
static int flush_dealt(Search *t) {
    size_t n = t->ndealt;
    t->ndealt = t->ds_len = 0;
    if (n && !t->reached && !(t->reached = PyList_New(0))) return -1;
    for (size_t i = 0; i < n; i++) {
        const Dealt *d = &t->dealt[i];
        PyObject *items[3] = {
            PyLong_FromLong(d->rank), entry_key(t, d->entry),
            PyBytes_FromStringAndSize((const char *)t->dealt_snaps + d->snap_off, d->snap_len)};
        PyObject *item = atomic_tuple(3, items);
        int done = item ? PyList_Append(t->reached, item) : -1;
        Py_XDECREF(item);
        if (done < 0) return -1;
    }
    return 0;
}

/* expand entry `node` (on the board): its new children join the tree and the heap, in the
   order of its moves (with `deal`, first the position a deal reaches, which joins the
   positions reached instead: a beam's spread); with stop_at_win, 1 when one is won
   (t->won, on the board). The node's snapshot is stored once a child needs it. */
static int expand_node(Search *t, int node, int break_weight, int stop_at_win, int deal) {
    Core *s = t->core;
    Scored moves[MAXMOVES];
    int n = ordered_moves(s, t->deal_score, t->noise, moves);
    if (n < 0) return -1;
    int nk = children(t, node, moves, n, deal, break_weight);
    if (nk < 0) return -1;
    for (int i = 0; i < nk; i++) {
        const Child *c = &t->kids[i];
        if (deal && !i) {
            if (add_dealt(t, node, c) < 0) return -1;
            continue;
        }
        const uint8_t *key = t->kid_keys + c->key;
        int fresh = key_is_new(t, key, c->klen, c->hash);
        if (fresh < 0) return -1;
        if (!fresh) continue;
        const act_t *hs = t->kid_hs + c->hs;
        int e = add_entry(t, key, c->klen, c->hash, node, hs, c->nh);
        if (e < 0) return -1;
        if (t->entries[node].snap_off == (size_t)-1) { /* this child will start from it */
            uint8_t snap[512];
            if (store_snap(t, node, snap, snap_bytes(s, snap), 1) < 0) return -1;
        }
        for (int j = 0; j < c->nh; j++) apply(s, hs[j]);
        if (stop_at_win && cards_home(s) == s->total) {
            t->won = e;
            return 1;
        }
        if (heap_push(t, rank_of(s, break_weight), e) < 0) return -1;
        for (int np = c->nh; np;) unapply(s, hs[--np]);
    }
    return 0;
}

/* pop the best position onto the board; 1 if it is the max_ticks-th (a pause is due) */
static int next_node(Search *t, int *node, int ticks, int max_ticks) {
    HeapItem item = heap_pop(t);
    *node = item.node;
    if (load_entry(t, item.node) < 0) return -1;
    if (ticks + 1 == max_ticks) {
        t->pending = item.node;
        return 1;
    }
    return 0;
}

/* A step's objects (its search or walk, its core, its lost keys, its noise) are claimed
   (busy) while it runs, and it lets go of the GIL, unless it must call Python: lost keys in a
   Python set, a noise() not a RandomNoise. Up to 4 objects, the step's first. */
typedef struct {
    Guarded *held[4];
    int n, free_gil;
} Claim;

static Claim claim_of(PyObject *self, Core *core, PyObject *lost, PyObject *noise) {
    Claim c = {{(Guarded *)self, (Guarded *)core}, 2, 1};
    if (keys_of(lost)) c.held[c.n++] = (Guarded *)lost;
    else c.free_gil = 0;
    if (Py_IS_TYPE(noise, &RandomNoiseType)) c.held[c.n++] = (Guarded *)noise;
    else if (noise != Py_None) c.free_gil = 0;
    return c;
}

/* claim the objects and let go of the GIL where it can (the GIL held; *released: the
   thread's state, for end_step, or NULL); -1 (RuntimeError) if a step in another thread has
   one of them */
static int begin_step(const Claim *c, PyThreadState **released) {
    for (int i = 0; i < c->n; i++)
        if (c->held[i]->busy) {
            in_use();
            return -1;
        }
    for (int i = 0; i < c->n; i++) c->held[i]->busy = 1;
    *released = c->free_gil ? PyEval_SaveThread() : NULL;
    return 0;
}

/* the GIL back, the objects free */
static void end_step(const Claim *c, PyThreadState *released) {
    if (released) PyEval_RestoreThread(released);
    for (int i = 0; i < c->n; i++) c->held[i]->busy = 0;
}

#define E_SNAPSHOT (-2) /* a step's failure: a position of the tree would not load */

/* the search's loop (without the GIL, see begin_step): the status, the positions expanded in
   *ticks; -1 on an error (see failed()), E_SNAPSHOT */
static int run_steps(Search *t, int max_ticks, int spread, int break_weight, int *ticks) {
    for (;;) {
        int node = t->pending;
        t->pending = -1;
        if (node < 0) {
            if (!t->heap_n || (spread && t->left <= 0)) return spread ? S_DONE : S_LOST;
            if (--t->left < 0 && !spread) return S_OPEN;
            int due = next_node(t, &node, *ticks, max_ticks);
            if (due < 0) return E_SNAPSHOT;
            ++*ticks;
            if (due) return S_TICK;
        }
        int won = expand_node(t, node, break_weight, !spread, spread);
        if (won < 0) return -1;
        if (won) return S_WIN;
    }
}

static PyObject *run(Search *t, int max_ticks, int spread, int break_weight) {
    int ticks = 0;
    PyThreadState *released;
    Claim claim = claim_of((PyObject *)t, t->core, t->lost, t->noise);
    if (begin_step(&claim, &released) < 0) return NULL;
    int status = run_steps(t, max_ticks, spread, break_weight, &ticks);
    end_step(&claim, released);
    if (status < 0) {
        t->ndealt = t->ds_len = 0;
        if (status == E_SNAPSHOT) not_a_snapshot();
        return failed();
    }
    return flush_dealt(t) < 0 ? NULL : int_pair(status, ticks);
}

static PyObject *Search_endgame(Search *t, PyObject *arg) {
    int max_ticks = (int)PyLong_AsLong(arg);
    if (max_ticks == -1 && PyErr_Occurred()) return NULL;
    return run(t, max_ticks, 0, 0);
}

static PyObject *Search_spread(Search *t, PyObject *args) {
    int max_ticks, break_weight;
    if (!PyArg_ParseTuple(args, "ii", &max_ticks, &break_weight)) return NULL;
    return run(t, max_ticks, 1, break_weight);
}

static PyObject *Search_root(Search *t, PyObject *key) {
    uint8_t buf[512];
    int n = key_from_object(key, buf);
    if (n < 0) return NULL;
    uint64_t h = hash_bytes(buf, n);
    if (find(t, buf, n, h) < 0 && add_entry(t, buf, n, h, -1, NULL, 0) < 0) return failed();
    Py_RETURN_NONE;
}

static PyObject *Search_seed(Search *t, PyObject *args) {
    PyObject *key;
    const char *snap;
    Py_ssize_t snap_len;
    long left;
    if (!PyArg_ParseTuple(args, "Oy#l", &key, &snap, &snap_len, &left)) return NULL;
    uint8_t buf[512];
    int n = key_from_object(key, buf);
    if (n < 0) return NULL;
    int e = find(t, buf, n, hash_bytes(buf, n));
    if (e < 0) {
        PyErr_SetString(PyExc_KeyError, "the seed is not in the tree");
        return NULL;
    }
    if (!snap_fits(t->core, (const uint8_t *)snap, snap_len)) {
        not_a_snapshot();
        return NULL;
    }
    if (t->entries[e].snap_off == (size_t)-1 &&
        store_snap(t, e, (const uint8_t *)snap, (int)snap_len, 0) < 0)
        return failed();
    t->heap_n = 0;
    t->pushed = -1; /* the seed is pushed 0th */
    if (heap_push(t, 0, e) < 0) return failed();
    t->left = left;
    t->pending = -1;
    PyObject *reached = PyList_New(0);
    if (!reached) return NULL;
    Py_XSETREF(t->reached, reached);
    Py_RETURN_NONE;
}

static PyObject *Search_path(Search *t, PyObject *key) {
    uint8_t buf[512];
    int n = key_from_object(key, buf);
    if (n < 0) return NULL;
    int e = find(t, buf, n, hash_bytes(buf, n));
    if (e < 0) {
        PyErr_SetString(PyExc_KeyError, "not in the tree");
        return NULL;
    }
    int total = 0;
    for (int x = e; t->entries[x].parent >= 0; x = t->entries[x].parent) total += t->entries[x].nh;
    PyObject *list = PyList_New(total);
    if (!list) return NULL;
    for (int x = e; t->entries[x].parent >= 0; x = t->entries[x].parent) {
        const Entry *y = &t->entries[x];
        total -= y->nh;
        for (int i = 0; i < y->nh; i++)
            PyList_SET_ITEM(list, total + i,
                            PyLong_FromUnsignedLongLong(t->handles[y->h_off + (size_t)i]));
    }
    return list;
}

static PyObject *Search_won_key(Search *t, PyObject *unused) {
    if (t->won < 0) Py_RETURN_NONE;
    return entry_key(t, t->won);
}

static PyObject *Search_dealt(Search *t, PyObject *unused) {
    if (!t->reached) return PyList_New(0);
    Py_INCREF(t->reached);
    return t->reached;
}

static PyObject *Search_heap_size(Search *t, PyObject *unused) {
    return PyLong_FromLong(t->heap_n);
}

static PyObject *Search_mark_lost(Search *t, PyObject *unused) {
    Table *lost = keys_of(t->lost);
    if (lost) {
        if (((Guarded *)t->lost)->busy) return in_use();
        for (int e = 0; e < t->nentries; e++) {
            size_t r = t->entries[e].key;
            if (keyset_add(lost, rec_key(&t->tree, r), (int)rec_len(&t->tree, r),
                           rec_hash(&t->tree, r)) < 0)
                return failed();
        }
        Py_RETURN_NONE;
    }
    for (int e = 0; e < t->nentries; e++) {
        PyObject *key = entry_key(t, e);
        if (!key || PySet_Add(t->lost, key) < 0) {
            Py_XDECREF(key);
            return NULL;
        }
        Py_DECREF(key);
    }
    Py_RETURN_NONE;
}

static PyObject *Search_len(Search *t, PyObject *unused) { return PyLong_FromLong(t->nentries); }

static int Search_init(Search *t, PyObject *args, PyObject *kw) {
    PyObject *core, *lost, *noise;
    int deal_score;
    if (!PyArg_ParseTuple(args, "O!OiO", &CoreType, &core, &lost, &deal_score, &noise))
        return -1;
    if (!PySet_Check(lost) && !Py_IS_TYPE(lost, &KeySetType)) {
        PyErr_SetString(PyExc_TypeError, "the lost positions are a set or a KeySet");
        return -1;
    }
    Py_INCREF(core);
    Py_INCREF(lost);
    Py_INCREF(noise);
    Py_XSETREF(t->core, (Core *)core);
    Py_XSETREF(t->lost, lost);
    Py_XSETREF(t->noise, noise);
    t->deal_score = deal_score;
    t->pending = t->won = -1;
    return 0;
}

static void Search_dealloc(Search *t) {
    Py_CLEAR(t->core);
    Py_CLEAR(t->lost);
    Py_CLEAR(t->noise);
    Py_CLEAR(t->reached);
    PyMem_RawFree(t->entries);
    table_release(&t->tree);
    PyMem_RawFree(t->handles);
    PyMem_RawFree(t->snaps);
    PyMem_RawFree(t->heap);
    PyMem_RawFree(t->kids);
    PyMem_RawFree(t->kid_keys);
    PyMem_RawFree(t->kid_hs);
    PyMem_RawFree(t->dealt);
    PyMem_RawFree(t->dealt_snaps);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyMethodDef Search_methods[] = {
    {"root", (PyCFunction)Search_root, METH_O, "Start the tree at a key."},
    {"seed", (PyCFunction)Search_seed, METH_VARARGS, "A new heap: (key, snapshot, left)."},
    {"endgame", (PyCFunction)Search_endgame, METH_O, "Search for a win: (status, positions)."},
    {"spread", (PyCFunction)Search_spread, METH_VARARGS, "A beam layer's spread."},
    {"path", (PyCFunction)Search_path, METH_O, "Handles from the root to a key."},
    {"won_key", (PyCFunction)Search_won_key, METH_NOARGS, "The key of the win found."},
    {"dealt", (PyCFunction)Search_dealt, METH_NOARGS, "(rank, key, snapshot) dealt."},
    {"heap_size", (PyCFunction)Search_heap_size, METH_NOARGS, "Positions waiting."},
    {"mark_lost", (PyCFunction)Search_mark_lost, METH_NOARGS, "The tree joins the lost."},
    {"size", (PyCFunction)Search_len, METH_NOARGS, "Positions in the tree."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "milligan_widget.core._ccore.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A best-first search on a CoreBase, as core/python.py's PySearch.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_getattro = guarded_getattro,
    .tp_methods = Search_methods,
};

/* ------------------------------------------------------------------ depth-first walk
 * Walk mirrors core/python.py's PyWalk: the solver's depth first over the positions before
 * the last deal. Python steps it, and it comes back only where the solver must act: a pause
 * due (the turn's end, the clock's checkpoint), an endgame to search, a win, every line
 * tried. The frames of the line share one stack of handles: a frame's auto moves, then
 * its moves in the order they are tried; the auto moves of the position just reached lie
 * above the top frame's (``played``). */

enum { S_ENDGAME = 5, V_EXPAND = 6 }; /* V_EXPAND: a position to go on down from */
enum { W_ARRIVE, W_PUSH, W_ADVANCE }; /* where the next step starts */
#define TRAP_ROWS_MAX 15

typedef struct {
    size_t autos, moves; /* offsets into the stack */
    int nautos, nmoves, tried; /* tried: the index of the move being tried, -1 before */
} Frame;

typedef struct {
    GUARDED_HEAD
    Core *core;
    PyObject *lost, *noise;
    Trap *trap;              /* the trapped-card test's work space, made on first use */
    int deal_score, trap_rows, trap_pays, max_depth;
    int trap_tries[TRAP_ROWS_MAX + 1][2]; /* [tried, trapped] by rows left to deal */
    int trapped_positions, too_deep;
    Table seen, free; /* seen this round; passed by the trapped-card test (every round) */
    Frame *frames;
    size_t nframes, cap_frames;
    act_t *stack;
    size_t top, cap_stack;
    int nplayed; /* auto moves of the position reached, at stack[top] */
    int resume, dealt;
    uint8_t key[512]; /* the position reached: its key bytes, the cards dealt last */
    int klen;
    uint64_t hash;
} Walk;

static PyTypeObject WalkType;


/* is the key (bytes, the cards dealt last) among the lost, a KeySet or a Python set? */
static int in_lost(PyObject *lost, const uint8_t *key, int n, uint64_t h) {
    const Table *keys = keys_of(lost);
    if (keys) return keyset_find(keys, key, n, h);
    if (!PySet_GET_SIZE(lost)) return 0;
    PyObject *obj = key_object(key, n - 1, key[n - 1]);
    if (!obj) return -1;
    int known = PySet_Contains(lost, obj);
    Py_DECREF(obj);
    return known;
}

static int add_lost(PyObject *lost, const uint8_t *key, int n, uint64_t h) {
    Table *keys = keys_of(lost);
    if (keys) return keyset_add(keys, key, n, h);
    PyObject *obj = key_object(key, n - 1, key[n - 1]);
    if (!obj) return -1;
    int done = PySet_Add(lost, obj);
    Py_DECREF(obj);
    return done;
}

/* PyWalk.trapped on the position on the board, of the key given: 1 if a card is trapped */
static int walk_trapped(Walk *w, const uint8_t *key, int n, uint64_t h) {
    Core *s = w->core;
    int rows = (s->decklen - s->pos + s->ncols - 1) / s->ncols;
    if (rows > w->trap_rows || keyset_find(&w->free, key, n, h)) return 0;
    int *tries = w->trap_tries[rows];
    if (tries[0] >= w->trap_pays && tries[1] * w->trap_pays < tries[0]) return 0;
    if (!w->trap && !(w->trap = PyMem_RawMalloc(sizeof(Trap)))) return -1;
    tries[0]++;
    if (trapped_count(w->trap, s) > 0) {
        tries[1]++;
        w->trapped_positions++;
        return add_lost(w->lost, key, n, h) < 0 ? -1 : 1;
    }
    return keyset_add(&w->free, key, n, h) < 0 ? -1 : 0;
}

static void undo_played(Walk *w) {
    while (w->nplayed) unapply(w->core, w->stack[w->top + (size_t)--w->nplayed]);
}

/* judge the position just reached, as PyWalk._arrive: S_WIN, S_ENDGAME or V_EXPAND (its
   auto moves stay played), S_LOST (left as found), -1 on an error */
static int arrive(Walk *w) {
    Core *s = w->core;
    w->nplayed = 0;
    if (w->nframes > (size_t)w->max_depth) { /* a very long line: leave it open */
        w->too_deep++;
        return S_LOST;
    }
    if (grow((void **)&w->stack, &w->cap_stack, w->top + 256, sizeof(act_t)) < 0) return -1;
    w->nplayed = auto_moves(s, w->stack + w->top);
    if (cards_home(s) == s->total) return S_WIN;
    w->klen = key_bytes(s, w->key);
    w->key[w->klen++] = (uint8_t)s->pos;
    w->hash = hash_bytes(w->key, w->klen);
    int known = keyset_find(&w->seen, w->key, w->klen, w->hash);
    if (!known) known = in_lost(w->lost, w->key, w->klen, w->hash);
    if (known < 0) return -1;
    if (!known) {
        if (keyset_add(&w->seen, w->key, w->klen, w->hash) < 0) return -1;
        int trapped = w->dealt ? walk_trapped(w, w->key, w->klen, w->hash) : 0;
        if (trapped < 0) return -1;
        if (!trapped) return s->pos < s->decklen ? V_EXPAND : S_ENDGAME;
    }
    undo_played(w);
    return S_LOST;
}

/* a frame for the position reached: its auto moves, then its moves best first */
static int push_frame(Walk *w) {
    size_t cap = w->cap_frames;
    if (grow((void **)&w->frames, &cap, w->nframes + 1, sizeof(Frame)) < 0) return -1;
    w->cap_frames = cap;
    size_t moves = w->top + (size_t)w->nplayed;
    if (grow((void **)&w->stack, &w->cap_stack, moves + MAXMOVES, sizeof(act_t)) < 0) return -1;
    Scored scored[MAXMOVES];
    int n = ordered_moves(w->core, w->deal_score, w->noise, scored); /* noise() as PyWalk */
    if (n < 0) return -1;
    for (int i = 0; i < n; i++) w->stack[moves + (size_t)i] = scored[i].h;
    Frame *f = &w->frames[w->nframes++];
    f->autos = w->top;
    f->nautos = w->nplayed;
    f->moves = moves;
    f->nmoves = n;
    f->tried = -1;
    w->top = moves + (size_t)n;
    w->nplayed = 0;
    return 0;
}

/* take back the move tried last and play the next one, backing up the line where every
   move is tried; 0 when the whole line is */
static int advance(Walk *w) {
    Core *s = w->core;
    w->nplayed = 0;
    while (w->nframes) {
        Frame *f = &w->frames[w->nframes - 1];
        if (f->tried >= 0) unapply(s, w->stack[f->moves + (size_t)f->tried]);
        if (++f->tried < f->nmoves) {
            act_t h = w->stack[f->moves + (size_t)f->tried];
            apply(s, h);
            w->dealt = A_KIND(h) == DEAL;
            return 1;
        }
        for (int i = f->nautos; i;) unapply(s, w->stack[f->autos + (size_t)--i]);
        w->top = f->autos;
        w->nframes--;
    }
    return 0;
}

/* PyWalk.step: the status, the positions gone on down from in *ticks; -1 on an error */
static int walk_on(Walk *w, long max_ticks, int *ticks) {
    if (w->resume == W_PUSH && push_frame(w) < 0) return -1;
    if (w->resume != W_ARRIVE && !advance(w)) {
        w->resume = W_ADVANCE;
        return S_DONE;
    }
    for (;;) {
        int verdict = arrive(w);
        if (verdict < 0) return -1;
        if (verdict == V_EXPAND) {
            if (++*ticks == max_ticks) { /* its frame is pushed at the next step */
                w->resume = W_PUSH;
                return S_TICK;
            }
            if (push_frame(w) < 0) return -1;
        } else if (verdict != S_LOST) {
            w->resume = W_ADVANCE;
            return verdict;
        }
        if (!advance(w)) {
            w->resume = W_ADVANCE;
            return S_DONE;
        }
    }
}

static PyObject *Walk_step(Walk *w, PyObject *arg) {
    long max_ticks = PyLong_AsLong(arg);
    if (max_ticks == -1 && PyErr_Occurred()) return NULL;
    PyThreadState *released;
    Claim claim = claim_of((PyObject *)w, w->core, w->lost, w->noise);
    if (begin_step(&claim, &released) < 0) return NULL;
    int ticks = 0, status = walk_on(w, max_ticks, &ticks);
    end_step(&claim, released);
    return status < 0 ? failed() : int_pair(status, ticks);
}

static void walk_reset(Walk *w) {
    table_release(&w->seen);
    w->nframes = w->top = 0;
    w->nplayed = w->too_deep = w->klen = 0;
    w->resume = W_ARRIVE;
    w->dealt = 1;
}

static PyObject *Walk_start(Walk *w, PyObject *unused) {
    walk_reset(w);
    Py_RETURN_NONE;
}

static PyObject *Walk_judge(Walk *w, PyObject *unused) {
    if (w->core->busy) return in_use();
    undo_played(w);
    w->resume = W_ADVANCE;
    Py_RETURN_NONE;
}

static PyObject *Walk_entry(Walk *w, PyObject *unused) {
    if (!w->klen) Py_RETURN_NONE;
    return key_object(w->key, w->klen - 1, w->key[w->klen - 1]);
}

static int append_handle(PyObject *list, act_t h) {
    PyObject *v = PyLong_FromUnsignedLongLong(h);
    int done = v ? PyList_Append(list, v) : -1;
    Py_XDECREF(v);
    return done;
}

static PyObject *Walk_line(Walk *w, PyObject *unused) {
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (size_t i = 0; i < w->nframes; i++) {
        const Frame *f = &w->frames[i];
        for (int j = 0; j < f->nautos; j++)
            if (append_handle(list, w->stack[f->autos + (size_t)j]) < 0) goto fail;
        if (f->tried >= 0 && append_handle(list, w->stack[f->moves + (size_t)f->tried]) < 0)
            goto fail;
    }
    for (int j = 0; j < w->nplayed; j++)
        if (append_handle(list, w->stack[w->top + (size_t)j]) < 0) goto fail;
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

static PyObject *Walk_trapped(Walk *w, PyObject *key) {
    uint8_t buf[512];
    int n = key_from_object(key, buf);
    if (n < 0) return NULL;
    if (w->core->busy || (keys_of(w->lost) && ((Guarded *)w->lost)->busy)) return in_use();
    int trapped = walk_trapped(w, buf, n, hash_bytes(buf, n));
    return trapped < 0 ? failed() : PyBool_FromLong(trapped);
}

static PyObject *Walk_too_deep(Walk *w, void *unused) { return PyLong_FromLong(w->too_deep); }
static PyObject *Walk_trapped_positions(Walk *w, void *unused) {
    return PyLong_FromLong(w->trapped_positions);
}

static int Walk_init(Walk *w, PyObject *args, PyObject *kw) {
    PyObject *core, *lost, *noise;
    int deal_score, trap_rows, trap_pays, max_depth;
    if (!PyArg_ParseTuple(args, "O!OiOiii", &CoreType, &core, &lost, &deal_score, &noise,
                          &trap_rows, &trap_pays, &max_depth))
        return -1;
    if (!PySet_Check(lost) && !Py_IS_TYPE(lost, &KeySetType)) {
        PyErr_SetString(PyExc_TypeError, "the lost positions are a set or a KeySet");
        return -1;
    }
    if (trap_rows > TRAP_ROWS_MAX || max_depth < 0) {
        PyErr_SetString(PyExc_ValueError, "trap_rows or max_depth out of range");
        return -1;
    }
    Py_INCREF(core);
    Py_INCREF(lost);
    Py_INCREF(noise);
    Py_XSETREF(w->core, (Core *)core);
    Py_XSETREF(w->lost, lost);
    Py_XSETREF(w->noise, noise);
    w->deal_score = deal_score;
    w->trap_rows = trap_rows;
    w->trap_pays = trap_pays;
    w->max_depth = max_depth;
    memset(w->trap_tries, 0, sizeof w->trap_tries);
    w->trapped_positions = 0;
    table_release(&w->free);
    walk_reset(w);
    return 0;
}

static void Walk_dealloc(Walk *w) {
    Py_CLEAR(w->core);
    Py_CLEAR(w->lost);
    Py_CLEAR(w->noise);
    table_release(&w->seen);
    table_release(&w->free);
    PyMem_RawFree(w->frames);
    PyMem_RawFree(w->stack);
    PyMem_RawFree(w->trap);
    Py_TYPE(w)->tp_free((PyObject *)w);
}

static PyMethodDef Walk_methods[] = {
    {"start", (PyCFunction)Walk_start, METH_NOARGS, "A new round from the board."},
    {"step", (PyCFunction)Walk_step, METH_O, "Walk on: (status, positions)."},
    {"judge", (PyCFunction)Walk_judge, METH_NOARGS, "The endgame reached was not won."},
    {"entry", (PyCFunction)Walk_entry, METH_NOARGS, "The key of the endgame reached."},
    {"line", (PyCFunction)Walk_line, METH_NOARGS, "Handles from the round's start."},
    {"trapped", (PyCFunction)Walk_trapped, METH_O, "The trapped-card test, for a key."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Walk_getset[] = {
    {"too_deep", (getter)Walk_too_deep, NULL, "Lines left open this round.", NULL},
    {"trapped_positions", (getter)Walk_trapped_positions, NULL, "Trapped positions found.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject WalkType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "milligan_widget.core._ccore.Walk",
    .tp_basicsize = sizeof(Walk),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The depth-first walk on a CoreBase, as core/python.py's PyWalk.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Walk_init,
    .tp_dealloc = (destructor)Walk_dealloc,
    .tp_getattro = guarded_getattro,
    .tp_methods = Walk_methods,
    .tp_getset = Walk_getset,
};

static PyMethodDef Core_methods[] = {
    {"key", (PyCFunction)Core_key, METH_NOARGS, "The search key: (bytes, cards dealt)."},
    {"snapshot", (PyCFunction)Core_snapshot, METH_NOARGS, "The piles as bytes."},
    {"restore", (PyCFunction)Core_restore, METH_O, "Put back the piles of a snapshot."},
    {"moves", (PyCFunction)Core_moves, METH_NOARGS, "Handles of every legal move."},
    {"scored_moves", (PyCFunction)Core_scored_moves, METH_O, "(score, handle) worth trying."},
    {"play", (PyCFunction)Core_play, METH_O, "Play a handle."},
    {"undo", (PyCFunction)Core_undo, METH_O, "Take back a handle just played."},
    {"auto_moves", (PyCFunction)Core_auto_moves, METH_NOARGS, "Play the safe home moves."},
    {"undo_all", (PyCFunction)Core_undo_all, METH_O, "Take back handles, last first."},
    {"deal_move", (PyCFunction)Core_deal_move, METH_NOARGS, "The handle of a deal."},
    {"won", (PyCFunction)Core_won, METH_NOARGS, "Are all cards home?"},
    {"cards_home", (PyCFunction)Core_cards_home, METH_NOARGS, "Cards on the foundations."},
    {"stock_left", (PyCFunction)Core_stock_left, METH_NOARGS, "Cards in the stock."},
    {"rows_left", (PyCFunction)Core_rows_left, METH_NOARGS, "Rows still to deal."},
    {"endgame_rank", (PyCFunction)Core_endgame_rank, METH_NOARGS, "Best-first rank."},
    {"breaks", (PyCFunction)Core_breaks, METH_NOARGS, "Breaks in the columns."},
    {"state", (PyCFunction)Core_state, METH_NOARGS, "Every pile, the runs and the stock."},
    {"expand", (PyCFunction)Core_expand, METH_VARARGS, "The new children of the position."},
    {"trapped", (PyCFunction)Core_trapped, METH_NOARGS, "Is a card trapped for good?"},
    {"trapped_cards", (PyCFunction)Core_trapped_cards, METH_NOARGS, "(card, column, epoch)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "milligan_widget.core._ccore.CoreBase",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A position for the solver, as packed byte arrays (see core/compiled.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_getattro = guarded_getattro,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ccore", "The compiled search core of milligan-widget.", -1, NULL,
};

PyMODINIT_FUNC PyInit__ccore(void) {
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&SearchType) < 0 ||
        PyType_Ready(&KeySetType) < 0 || PyType_Ready(&WalkType) < 0 ||
        PyType_Ready(&RandomNoiseType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "CoreBase", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&KeySetType);
    if (PyModule_AddObject(m, "KeySet", (PyObject *)&KeySetType) < 0) {
        Py_DECREF(&KeySetType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&WalkType);
    if (PyModule_AddObject(m, "Walk", (PyObject *)&WalkType) < 0) {
        Py_DECREF(&WalkType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&RandomNoiseType);
    if (PyModule_AddObject(m, "RandomNoise", (PyObject *)&RandomNoiseType) < 0) {
        Py_DECREF(&RandomNoiseType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
