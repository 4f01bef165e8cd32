/* pfls-pmpi.c -- the MPI call recorder of `pfls profile`.
 *
 * The instrumented copy of the program calls PFL_SEND where the source
 * calls MPI_SEND (the same length, so no line grows), and so for every
 * routine below. Each wrapper records the call -- which routine, the
 * source line the instrumenter stored in pfls_line just before it, the
 * bytes, the peer, the start and end times (MPI_Wtime: simulated time
 * under SimGrid's SMPI) -- and calls the MPI library's Fortran binding
 * (mpi_send_). Renaming instead of interposing on mpi_send_ works with
 * any MPI: SMPI has no pmpi_send_ and, loading the program as a shared
 * object, would bind its calls to its own mpi_send_. pfl_finalize_
 * writes the records to pfls-prof.RANK.mpi before it finalizes.
 *
 * Bytes: a send carries count * size of its datatype, a receive what it
 * received (MPI_GET_COUNT on its status, times the size); neither to or
 * from MPI_PROC_NULL carries any. A call given MPI_STATUS_IGNORE (or
 * MPI_STATUSES_IGNORE) is renamed PFI_RECV (PFI_WAIT, ...) instead, whose
 * wrapper passes the library a status of its own. An MPI_IRECV is noted
 * with its buffer's size, corrected to what it received when an MPI_WAIT,
 * or an MPI_WAITALL without statuses, completes it; completed otherwise
 * (MPI_TEST, an MPI_WAITALL with statuses) it keeps the buffer's size. A collective counts the data this rank contributes (count * size;
 * ALLTOALL and a root's SCATTER their whole send buffer).
 *
 * Compiled with -DPFLS_PLAIN, it has only pfl_init_ and pfl_finalize_,
 * which time MPI_Init to MPI_Finalize and write pfls-plain.RANK.time: the
 * uninstrumented run's time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* PFLS_DIR is the folder of the files written (pfls profile's temporary
 * folder: the program runs in the user's). */
#ifndef PFLS_DIR
#define PFLS_DIR "."
#endif

static double t_init;
static int rank_here;

#ifndef PFLS_PLAIN
extern int pfls_line; /* set by the instrumented program before each call */
extern int pfls_rank; /* read by its counters' writer */

enum { F_SEND, F_RECV, F_SENDRECV, F_ISEND, F_IRECV, F_WAIT, F_WAITALL,
       F_BCAST, F_REDUCE, F_ALLREDUCE, F_BARRIER, F_ALLTOALL, F_ALLGATHER,
       F_GATHER, F_SCATTER, F_SSEND, F_SENDRECV_REPLACE, F_N };
static const char *names[F_N] = {"MPI_SEND", "MPI_RECV", "MPI_SENDRECV",
  "MPI_ISEND", "MPI_IRECV", "MPI_WAIT", "MPI_WAITALL", "MPI_BCAST",
  "MPI_REDUCE", "MPI_ALLREDUCE", "MPI_BARRIER", "MPI_ALLTOALL",
  "MPI_ALLGATHER", "MPI_GATHER", "MPI_SCATTER", "MPI_SSEND",
  "MPI_SENDRECV_REPLACE"};

typedef struct {
  double t0, t1;
  long long bytes;
  int line, peer;
  short fn;
} record;

/* The timeline keeps the first MAXREC calls; the totals per line and
 * routine count every call. */
enum { MAXREC = 1 << 18, MAXLINES = 4096 };
static record *recs;
static long nrec, dropped;

typedef struct {
  int line;
  short fn, used;
  long long calls, bytes;
  double time;
} total;
static total totals[MAXLINES];
static long lost_totals;

/* note adds a call to the totals and the timeline; it returns the
 * index of its record, or -1 when the timeline is full. */
static long note(int fn, int line, double t0, double t1, long long bytes, int peer) {
  unsigned h = ((unsigned)line * 2654435761u + (unsigned)fn * 40503u) % MAXLINES;
  int i;
  for (i = 0; i < MAXLINES; i++) {
    total *t = &totals[(h + i) % MAXLINES];
    if (!t->used) { t->used = 1; t->line = line; t->fn = fn; }
    if (t->line == line && t->fn == fn) {
      t->calls++; t->bytes += bytes; t->time += t1 - t0;
      break;
    }
  }
  if (i == MAXLINES) lost_totals++;
  if (recs != NULL && nrec < MAXREC) {
    record *r = &recs[nrec++];
    r->t0 = t0; r->t1 = t1; r->bytes = bytes; r->line = line; r->peer = peer; r->fn = (short)fn;
    return nrec - 1;
  }
  dropped++;
  return -1;
}

/* adjust adds delta bytes to a call noted before: to its line's total
 * and to its record (rec, -1 for none). */
static void adjust(int fn, int line, long rec, long long delta) {
  unsigned h = ((unsigned)line * 2654435761u + (unsigned)fn * 40503u) % MAXLINES;
  int i;
  for (i = 0; i < MAXLINES; i++) {
    total *t = &totals[(h + i) % MAXLINES];
    if (!t->used) break;
    if (t->line == line && t->fn == fn) {
      t->bytes += delta;
      break;
    }
  }
  if (rec >= 0 && rec < nrec) recs[rec].bytes += delta;
}

static long long size_of(MPI_Fint *dt, MPI_Fint *count) {
  int s = 0;
  MPI_Type_size(MPI_Type_f2c(*dt), &s);
  return (long long)s * (long long)*count;
}

/* received is what a completed receive into count items of type dt
 * brought: the count its Fortran status gives, times the size of the
 * type (the buffer's size when the status does not say). */
extern void mpi_get_count_(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

static long long received(MPI_Fint *st, MPI_Fint *dt, MPI_Fint *count) {
  /* The library's Fortran MPI_GET_COUNT reads the Fortran status as it
   * wrote it (SMPI has no MPI_Status_f2c). */
  MPI_Fint n = 0, err = 0;
  int size = 0;
  mpi_get_count_(st, dt, &n, &err);
  if (err != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
    return size_of(dt, count);
  MPI_Type_size(MPI_Type_f2c(*dt), &size);
  return (long long)n * (long long)size;
}

/* STATUS_FINTS is room for a Fortran status of any MPI (Open MPI's has 6
 * integers, SMPI's 5). */
enum { STATUS_FINTS = 64 };

/* pending are the MPI_IRECVs not yet completed by a wrapper, by request
 * handle: what they were noted with, corrected when they complete. dt is
 * a datatype of the recorder's own when the receive's is derived (own
 * set): the program may free its own before the receive completes
 * (MPI 3.1 4.1.9), after which its handle is no longer valid. */
enum { MAXPENDING = 1024 };
typedef struct {
  MPI_Fint req, dt, count;
  int line, used, own;
  long rec;
  long long bytes;
} pending_recv;
static pending_recv pending[MAXPENDING];

/* release ends a pending receive, freeing the recorder's datatype. */
static void release(pending_recv *p) {
  if (p->own) {
    MPI_Datatype t = MPI_Type_f2c(p->dt);
    MPI_Type_free(&t);
  }
  p->used = 0;
  p->own = 0;
}

static pending_recv *find_pending(MPI_Fint req) {
  int i;
  for (i = 0; i < MAXPENDING; i++)
    if (pending[i].used && pending[i].req == req) return &pending[i];
  return NULL;
}

/* forget drops the pending receive of a request handle (one completed
 * where its count is not read, or a handle the library gives again). */
static void forget(MPI_Fint req) {
  pending_recv *p = find_pending(req);
  if (p != NULL) release(p);
}

static void posted(MPI_Fint req, MPI_Fint dt, MPI_Fint count, int line, long rec, long long bytes) {
  int i;
  forget(req);
  for (i = 0; i < MAXPENDING; i++) {
    if (!pending[i].used) {
      pending_recv p = {req, dt, count, line, 1, 0, rec, bytes};
      MPI_Datatype t = MPI_Type_f2c(dt), mine;
      int ni, na, nd, combiner;
      if (MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner != MPI_COMBINER_NAMED) {
        /* A derived type: a duplicate the program cannot free. */
        if (MPI_Type_dup(t, &mine) != MPI_SUCCESS) return;
        p.dt = MPI_Type_c2f(mine);
        p.own = 1;
      }
      pending[i] = p;
      return;
    }
  }
}

/* completed corrects the bytes of the receive of request req (its handle
 * before completion) from st, the status its completion filled. */
static void completed(MPI_Fint req, MPI_Fint *st) {
  pending_recv *p = find_pending(req);
  if (p == NULL) return;
  adjust(F_IRECV, p->line, p->rec, received(st, &p->dt, &p->count) - p->bytes);
  release(p);
}

static long long to_peer(MPI_Fint *peer, long long bytes) {
  return *peer == MPI_PROC_NULL ? 0 : bytes;
}

static int comm_size(MPI_Fint *comm) {
  int p = 1;
  MPI_Comm_size(MPI_Comm_f2c(*comm), &p);
  return p;
}

static int comm_rank(MPI_Fint *comm) {
  int r = 0;
  MPI_Comm_rank(MPI_Comm_f2c(*comm), &r);
  return r;
}
#endif

/* The MPI library's Fortran bindings. */
extern void mpi_init_(MPI_Fint *);
extern void mpi_init_thread_(MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_finalize_(MPI_Fint *);

static void started(void) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_here);
#ifndef PFLS_PLAIN
  pfls_rank = rank_here;
  recs = malloc(sizeof(record) * MAXREC);
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  t_init = MPI_Wtime();
}

void pfl_init_(MPI_Fint *ierr) { mpi_init_(ierr); started(); }

void pfl_init_thread_(MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr) {
  mpi_init_thread_(req, prov, ierr);
  started();
}

static double t_fini;

/* pfl_mark_ ends the timed span: the instrumented program calls it before
 * it writes its counters, so that the writing is not part of the span. */
void pfl_mark_(void) {
  if (t_fini == 0) t_fini = MPI_Wtime();
}

void pfl_finalize_(MPI_Fint *ierr) {
  pfl_mark_();
  char name[4096];
  FILE *f;
#ifdef PFLS_PLAIN
  snprintf(name, sizeof name, "%s/pfls-plain.%d.time", PFLS_DIR, rank_here);
  f = fopen(name, "w");
  if (f != NULL) {
    fprintf(f, "%.9f\n", t_fini - t_init);
    fclose(f);
  }
#else
  long i;
  snprintf(name, sizeof name, "%s/pfls-prof.%d.mpi", PFLS_DIR, rank_here);
  f = fopen(name, "w");
  if (f != NULL) {
    fprintf(f, "span %.9f %.9f\n", t_init, t_fini);
    fprintf(f, "dropped %ld %ld\n", dropped, lost_totals);
    for (i = 0; i < MAXLINES; i++) {
      total *t = &totals[i];
      if (t->used)
        fprintf(f, "line %d %s %lld %lld %.9f\n", t->line, names[t->fn], t->calls, t->bytes, t->time);
    }
    for (i = 0; i < nrec; i++) {
      record *r = &recs[i];
      fprintf(f, "call %s %d %.9f %.9f %lld %d\n", names[r->fn], r->line, r->t0, r->t1, r->bytes, r->peer);
    }
    fclose(f);
  }
  free(recs);
  recs = NULL;
#endif
  mpi_finalize_(ierr);
}

#ifndef PFLS_PLAIN
extern void mpi_send_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_ssend_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_recv_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_sendrecv_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *,
                           MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_sendrecv_replace_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                                   MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_isend_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_irecv_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_wait_(MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_waitall_(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_bcast_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_reduce_(void *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_allreduce_(void *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_barrier_(MPI_Fint *, MPI_Fint *);
extern void mpi_alltoall_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_allgather_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_gather_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
extern void mpi_scatter_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

#define T0 double t0 = MPI_Wtime(); int line = pfls_line
#define DONE(fn, bytes, peer) note(fn, line, t0, MPI_Wtime(), bytes, peer)

void pfl_send_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr) {
  T0;
  mpi_send_(b, n, dt, dest, tag, comm, ierr);
  DONE(F_SEND, to_peer(dest, size_of(dt, n)), *dest);
}

void pfl_ssend_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr) {
  T0;
  mpi_ssend_(b, n, dt, dest, tag, comm, ierr);
  DONE(F_SSEND, to_peer(dest, size_of(dt, n)), *dest);
}

void pfl_recv_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *src, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *st,
               MPI_Fint *ierr) {
  T0;
  mpi_recv_(b, n, dt, src, tag, comm, st, ierr);
  DONE(F_RECV, to_peer(src, received(st, dt, n)), *src);
}

void pfi_recv_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *src, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ignore,
               MPI_Fint *ierr) {
  MPI_Fint st[STATUS_FINTS];
  (void)ignore;
  pfl_recv_(b, n, dt, src, tag, comm, st, ierr);
}

void pfl_sendrecv_(void *sb, MPI_Fint *sn, MPI_Fint *sdt, MPI_Fint *dest, MPI_Fint *stag, void *rb, MPI_Fint *rn,
                   MPI_Fint *rdt, MPI_Fint *src, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *st, MPI_Fint *ierr) {
  T0;
  mpi_sendrecv_(sb, sn, sdt, dest, stag, rb, rn, rdt, src, rtag, comm, st, ierr);
  DONE(F_SENDRECV, to_peer(dest, size_of(sdt, sn)) + to_peer(src, received(st, rdt, rn)),
       *dest != MPI_PROC_NULL ? *dest : *src);
}

void pfi_sendrecv_(void *sb, MPI_Fint *sn, MPI_Fint *sdt, MPI_Fint *dest, MPI_Fint *stag, void *rb, MPI_Fint *rn,
                   MPI_Fint *rdt, MPI_Fint *src, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *ignore, MPI_Fint *ierr) {
  MPI_Fint st[STATUS_FINTS];
  (void)ignore;
  pfl_sendrecv_(sb, sn, sdt, dest, stag, rb, rn, rdt, src, rtag, comm, st, ierr);
}

void pfl_sendrecv_replace_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *dest, MPI_Fint *stag, MPI_Fint *src,
                           MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *st, MPI_Fint *ierr) {
  T0;
  mpi_sendrecv_replace_(b, n, dt, dest, stag, src, rtag, comm, st, ierr);
  DONE(F_SENDRECV_REPLACE, to_peer(dest, size_of(dt, n)) + to_peer(src, received(st, dt, n)),
       *dest != MPI_PROC_NULL ? *dest : *src);
}

void pfi_sendrecv_replace_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *dest, MPI_Fint *stag, MPI_Fint *src,
                           MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *ignore, MPI_Fint *ierr) {
  MPI_Fint st[STATUS_FINTS];
  (void)ignore;
  pfl_sendrecv_replace_(b, n, dt, dest, stag, src, rtag, comm, st, ierr);
}

void pfl_isend_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *req,
                MPI_Fint *ierr) {
  T0;
  mpi_isend_(b, n, dt, dest, tag, comm, req, ierr);
  DONE(F_ISEND, to_peer(dest, size_of(dt, n)), *dest);
  forget(*req);
}

void pfl_irecv_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *src, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *req,
                MPI_Fint *ierr) {
  T0;
  mpi_irecv_(b, n, dt, src, tag, comm, req, ierr);
  long long bytes = to_peer(src, size_of(dt, n));
  long rec = DONE(F_IRECV, bytes, *src);
  if (*src != MPI_PROC_NULL) posted(*req, *dt, *n, line, rec, bytes);
  else forget(*req);
}

void pfl_wait_(MPI_Fint *req, MPI_Fint *st, MPI_Fint *ierr) {
  T0;
  MPI_Fint r = *req;
  mpi_wait_(req, st, ierr);
  DONE(F_WAIT, 0, -1);
  completed(r, st);
}

void pfi_wait_(MPI_Fint *req, MPI_Fint *ignore, MPI_Fint *ierr) {
  MPI_Fint st[STATUS_FINTS];
  (void)ignore;
  pfl_wait_(req, st, ierr);
}

void pfl_waitall_(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *sts, MPI_Fint *ierr) {
  T0;
  MPI_Fint i;
  /* The statuses' stride is the Fortran MPI_STATUS_SIZE, which C does not
   * know: these receives keep their buffers' sizes. */
  for (i = 0; i < *n; i++) forget(reqs[i]);
  mpi_waitall_(n, reqs, sts, ierr);
  DONE(F_WAITALL, 0, -1);
}

/* pfi_waitall_ is MPI_WAITALL with MPI_STATUSES_IGNORE: it waits for the
 * requests one by one (what MPI_WAITALL does, in some order), each with a
 * status of its own, to read the counts of the receives. */
void pfi_waitall_(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *ignore, MPI_Fint *ierr) {
  T0;
  MPI_Fint i, st[STATUS_FINTS];
  (void)ignore;
  *ierr = MPI_SUCCESS;
  for (i = 0; i < *n && *ierr == MPI_SUCCESS; i++) {
    MPI_Fint r = reqs[i];
    mpi_wait_(&reqs[i], st, ierr);
    completed(r, st);
  }
  DONE(F_WAITALL, 0, -1);
}

void pfl_bcast_(void *b, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
  T0;
  mpi_bcast_(b, n, dt, root, comm, ierr);
  DONE(F_BCAST, size_of(dt, n), *root);
}

void pfl_reduce_(void *sb, void *rb, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm,
                 MPI_Fint *ierr) {
  T0;
  mpi_reduce_(sb, rb, n, dt, op, root, comm, ierr);
  DONE(F_REDUCE, size_of(dt, n), *root);
}

void pfl_allreduce_(void *sb, void *rb, MPI_Fint *n, MPI_Fint *dt, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr) {
  T0;
  mpi_allreduce_(sb, rb, n, dt, op, comm, ierr);
  DONE(F_ALLREDUCE, size_of(dt, n), -1);
}

void pfl_barrier_(MPI_Fint *comm, MPI_Fint *ierr) {
  T0;
  mpi_barrier_(comm, ierr);
  DONE(F_BARRIER, 0, -1);
}

void pfl_alltoall_(void *sb, MPI_Fint *sn, MPI_Fint *sdt, void *rb, MPI_Fint *rn, MPI_Fint *rdt, MPI_Fint *comm,
                   MPI_Fint *ierr) {
  T0;
  mpi_alltoall_(sb, sn, sdt, rb, rn, rdt, comm, ierr);
  DONE(F_ALLTOALL, size_of(sdt, sn) * comm_size(comm), -1);
}

void pfl_allgather_(void *sb, MPI_Fint *sn, MPI_Fint *sdt, void *rb, MPI_Fint *rn, MPI_Fint *rdt, MPI_Fint *comm,
                    MPI_Fint *ierr) {
  T0;
  mpi_allgather_(sb, sn, sdt, rb, rn, rdt, comm, ierr);
  DONE(F_ALLGATHER, size_of(sdt, sn), -1);
}

void pfl_gather_(void *sb, MPI_Fint *sn, MPI_Fint *sdt, void *rb, MPI_Fint *rn, MPI_Fint *rdt, MPI_Fint *root,
                 MPI_Fint *comm, MPI_Fint *ierr) {
  T0;
  mpi_gather_(sb, sn, sdt, rb, rn, rdt, root, comm, ierr);
  DONE(F_GATHER, size_of(sdt, sn), *root);
}

void pfl_scatter_(void *sb, MPI_Fint *sn, MPI_Fint *sdt, void *rb, MPI_Fint *rn, MPI_Fint *rdt, MPI_Fint *root,
                  MPI_Fint *comm, MPI_Fint *ierr) {
  T0;
  mpi_scatter_(sb, sn, sdt, rb, rn, rdt, root, comm, ierr);
  DONE(F_SCATTER, comm_rank(comm) == *root ? size_of(sdt, sn) * comm_size(comm) : 0, *root);
}
#endif
