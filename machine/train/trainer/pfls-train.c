/*
 * The training set of pfls (seed 003, "training sets"): an MPI program that
 * measures what the estimator needs on the machine it runs on, written to
 * be compiled by `pfls train` with the MPI C compiler wrapper (mpicc) and
 * run with mpirun at each processor count trained.
 *
 *   pfls-train [--quick] [--passes K] [--charge] [--patterns P,...] [--sizes N,...] [--once] [--settle K]
 *
 * --patterns measures only the communication patterns named (pfls train
 * at a large P on a platform: the collectives, the neighbour patterns
 * taken from a smaller P, see machine/train/derive.go); --sizes only the
 * message sizes given (bytes), instead of the built-in list; --once
 * (with --charge) times a collective's first call alone; --settle K
 * (with --charge) runs K untimed calls of a neighbour pattern before its
 * timed ones instead of warm_up()'s.
 *
 * Rank 0 writes lines to standard output, one fact per line, fields
 * separated by single spaces (partition.ParseTraining reads them):
 *
 *   pfls-train 1                          format version
 *   procs P
 *   mpi TEXT                              MPI_Get_library_version, first line
 *   limit NAME BYTES                      a protocol limit the MPI library
 *                                         reports through MPI_T (eager limits)
 *                                         (none where the library has no
 *                                         MPI_T: see PFLS_NO_MPI_T)
 *   progress DONE TOTAL LABEL             before each measurement
 *   comm PATTERN BYTES MEDIAN MIN MAX K   seconds per call, K passes pooled
 *   kernel NAME BYTES SECONDS             seconds per element of a loop kernel
 *                                         whose arrays take BYTES in all
 *   trip N SECONDS                        one loop of N iterations (L1 data)
 *   done
 *
 * Communication patterns (BYTES is the size of one message; for alltoall
 * the block sent to each other rank):
 *
 *   element-shift       circular shift, 16 messages in flight per neighbour:
 *                       the time of one message when elements are sent one
 *                       by one (seed 003's iSR)
 *   vector-shift        circular shift, one MPI_Sendrecv (vSR): every rank
 *                       sends right and receives from the left
 *   open-shift          the same along a non-periodic dimension: the last
 *                       rank only receives, the first only sends
 *   open-shift-strided  open-shift whose data is one double in every 8 (a
 *                       row of a column-major array): a vector datatype
 *   exchange            seed 003's EXCH in two stages: even ranks send to
 *                       odd ones, then the reverse
 *   halo-2              non-periodic chain, both neighbours at once
 *   halo-4              non-periodic 2-D grid (P = px*py as pfls factors P),
 *                       up to four neighbours at once
 *   grid-shift-1        open-shift along the first dimension of that grid,
 *                       ranks numbered as MPI_Cart_create numbers them
 *                       (the second dimension varies fastest): rank r
 *                       sends to r + py; measured where py > 1
 *   grid-shift-2        open-shift along its second dimension: rank r
 *                       sends to r + 1 within its row of py ranks. Where
 *                       the pairs of ranks differ in distance (a fat
 *                       tree's leaves, a torus), a shift along a grid
 *                       dimension takes its own pairs' time, not the
 *                       chain's over all P
 *   broadcast           MPI_Bcast from rank 0
 *   reduction-broadcast MPI_Allreduce (sum of doubles)
 *   alltoall            MPI_Alltoall
 *
 * Every pattern but the element shift is timed one call at a time, each
 * call after a barrier, as in a stencil or a solver, where the ranks meet
 * at an exchange after computing: consecutive calls cannot overlap, so a
 * broadcast cannot look cheaper than a send, and a shift costs its
 * latency. (Back-to-back batches measure the pipelined rate instead; they
 * made lockstep exchanges look about 3 times cheaper than the validation
 * kernels measured at P = 2.) The element shift keeps 16 messages in
 * flight in a timed batch: the time of one element's message when a loop
 * sends them one by one. The time of a call is the largest over the
 * ranks, per call, and a point the median of the calls. Sizes are visited pass after pass (not all passes of one
 * size in a row), so a slow moment of the machine spreads over sizes
 * instead of bending one point; each point is the median of the passes.
 *
 * Operation costs come from loop kernels over arrays of doubles (all ranks
 * at once, as in a parallel run, where ranks share the memory system);
 * pfls turns their times into operation costs (partition.BuildMachine):
 *
 *   store   y[i] = c             copy  y[i] = x[i]
 *   add     y[i] = x[i] + z[i]   mul, div, div.real (float), div.int (long)
 *   sqrt    y[i] = sqrt(x[i])    exp, pow (x[i]**z[i])
 *   select  y[i] = x[i] > z[i] ? x[i] : z[i]
 *   call    y[i] = bump(x[i])    (bump adds 1 and is never inlined)
 *   copy.strided  y[i] = x[i] for every second i (a loop the compiler
 *                 cannot turn into vector instructions as it does copy)
 *   stencil5 y[i] = x[i-2] + x[i-1] + x[i] + x[i+1] + x[i+2]  (the
 *                 references after the first reuse the cache lines it
 *                 brought in)
 *   stencil5.real  stencil5 over floats (REAL): how much less time a
 *                 reference to a 4-byte element takes than to an 8-byte
 *                 one (half in vector code, about the same in scalar)
 *   redblack y[i] = 0.25*(y[i-1] + y[i+1] + x[i-1] + x[i+1]) + 0.5*y[i]
 *                 for every second i (a colour sweep of red-black
 *                 relaxation: strided, in place)
 *   memcpy   memcpy(y, x, n doubles): the copy loop as compilers compile
 *                 it (GCC at -O2 calls memcpy for y[i] = x[i] and for
 *                 Fortran's A(I,J) = B(I,J)), which moves vectors: its
 *                 seconds per 8 bytes
 *
 * all with L1-resident data, and copy and memcpy again at working sets
 * from L1 to main memory (memcpy only there: its L1 size is the first
 * of them); trip lines time the add kernel at short and long trip
 * counts.
 *
 * --charge (SimGrid's SMPI only; pfls train --platform gives it, and runs
 * smpirun with smpi/simulate-computation:no): the time the kernels take
 * on the machine running the simulation is not charged to the simulated
 * hosts; each timed kernel instead charges its operation count with
 * smpi_execute_flops, in floating-point operations weighted as the
 * Livermore Fortran Kernels count them (McMahon 1986): +, -, * one; /
 * and sqrt four (an integer division too); exp and pow eight; a
 * comparison one; copies, stores and loop control nothing. The simulated
 * times then depend on the platform's node speed alone and repeat exactly;
 * the validation kit's kernels charge their loops the same way
 * (validation/kernels/charge_smpi.f90).
 */
#include <unistd.h>
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, nprocs, quick, passes, charged;

/* SimGrid's SMPI: its mpi.h includes smpi.h, which defines SMPI_H and
 * declares smpi_execute_flops. */
#ifdef SMPI_H
#define PFLS_CAN_CHARGE 1
#endif

static double now(void) { return MPI_Wtime(); }

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof v[0], cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- processor grid (as pfls factors P: the two closest factors) ---- */

static void grid2(int p, int *px, int *py)
{
	int a = (int)sqrt((double)p);
	while (a > 1 && p % a != 0)
		a--;
	*px = p / a;
	*py = a;
}

/* ---- communication patterns ---- */

enum { ELEMENT_SHIFT, VECTOR_SHIFT, OPEN_SHIFT, OPEN_SHIFT_STRIDED, EXCHANGE,
       HALO2, HALO4, GRID_SHIFT1, GRID_SHIFT2, BROADCAST, REDUCTION_BROADCAST,
       ALLTOALL, NPATTERNS };

static const char *pattern_name[NPATTERNS] = {
	"element-shift", "vector-shift", "open-shift", "open-shift-strided",
	"exchange", "halo-2", "halo-4", "grid-shift-1", "grid-shift-2",
	"broadcast", "reduction-broadcast", "alltoall",
};

enum { STRIDE = 8, INFLIGHT = 16 };

static char *sbuf, *rbuf;           /* message buffers */
static long bufsize;
static int reverse; /* the shifts go left instead of right (see measure) */
static int only[NPATTERNS], only_set; /* --patterns: measure these alone */
static int once;                      /* --once: see comm_all */
static long given[128];               /* --sizes */
static int ngiven;

/* The messages in flight of the element shift: 16 on a real MPI; under
 * --charge at P >= 64, 4, since SMPI's time for a call grows faster than
 * the number of messages in flight at once (16 a rank at P = 64 took 4
 * to 8 s a size here, 4 under 1 s). At P = 64 on ncube2 the time of a
 * message with 4 in flight is 4% above 16's at 8 bytes and 0.1% at 4 KiB
 * (the start-up is spread over fewer messages). */
static int inflight(void) { return charged && nprocs >= 64 ? 4 : INFLIGHT; }

/* one call of pattern pat with messages of n bytes */
static void call(int pat, long n)
{
	int right = (rank + 1) % nprocs, left = (rank + nprocs - 1) % nprocs;
	int up = rank + 1 < nprocs ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	MPI_Request req[2 * INFLIGHT];
	int nr = 0, i;
	if (reverse) {
		i = right, right = left, left = i;
		i = up, up = down, down = i;
	}
	switch (pat) {
	case ELEMENT_SHIFT:
		for (i = 0; i < inflight(); i++) {
			MPI_Irecv(rbuf + i * n, (int)n, MPI_BYTE, left, i, MPI_COMM_WORLD, &req[nr++]);
			MPI_Isend(sbuf + i * n, (int)n, MPI_BYTE, right, i, MPI_COMM_WORLD, &req[nr++]);
		}
		MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
		break;
	case VECTOR_SHIFT:
		MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, right, 1, rbuf, (int)n, MPI_BYTE, left, 1,
		             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		break;
	case OPEN_SHIFT:
		MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, up, 2, rbuf, (int)n, MPI_BYTE, down, 2,
		             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		break;
	case OPEN_SHIFT_STRIDED: {
		/* the vector type of the size, made once (not in the timed call) */
		static MPI_Datatype row;
		static long row_n = -1;
		int count = (int)(n / 8);
		if (n != row_n) {
			if (row_n >= 0)
				MPI_Type_free(&row);
			MPI_Type_vector(count, 1, STRIDE, MPI_DOUBLE, &row);
			MPI_Type_commit(&row);
			row_n = n;
		}
		MPI_Sendrecv(sbuf, count ? 1 : 0, row, up, 3, rbuf, count, MPI_DOUBLE, down, 3,
		             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		break;
	}
	case EXCHANGE: {
		int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
		if (partner >= nprocs)
			break;
		if (rank % 2 == 0) {
			MPI_Send(sbuf, (int)n, MPI_BYTE, partner, 4, MPI_COMM_WORLD);
			MPI_Recv(rbuf, (int)n, MPI_BYTE, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(rbuf, (int)n, MPI_BYTE, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(sbuf, (int)n, MPI_BYTE, partner, 5, MPI_COMM_WORLD);
		}
		break;
	}
	case HALO2:
	case HALO4: {
		int px = nprocs, py = 1, x, y, d;
		if (pat == HALO4)
			grid2(nprocs, &px, &py);
		x = rank % px;
		y = rank / px;
		int nb[4] = {
			x > 0 ? rank - 1 : -1, x + 1 < px ? rank + 1 : -1,
			y > 0 ? rank - px : -1, y + 1 < py ? rank + px : -1,
		};
		for (d = 0; d < 4; d++) {
			if (nb[d] < 0)
				continue;
			MPI_Irecv(rbuf + d * n, (int)n, MPI_BYTE, nb[d], 6, MPI_COMM_WORLD, &req[nr++]);
			MPI_Isend(sbuf + d * n, (int)n, MPI_BYTE, nb[d], 6, MPI_COMM_WORLD, &req[nr++]);
		}
		MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
		break;
	}
	case GRID_SHIFT1:
	case GRID_SHIFT2: {
		int px, py, stride, len, c, to, from;
		grid2(nprocs, &px, &py);
		stride = pat == GRID_SHIFT1 ? py : 1;
		len = pat == GRID_SHIFT1 ? px : py;
		c = rank / stride % len;
		to = c + 1 < len ? rank + stride : MPI_PROC_NULL;
		from = c > 0 ? rank - stride : MPI_PROC_NULL;
		if (reverse)
			i = to, to = from, from = i;
		MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, to, 7, rbuf, (int)n, MPI_BYTE, from, 7,
		             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		break;
	}
	case BROADCAST:
		MPI_Bcast(sbuf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
		break;
	case REDUCTION_BROADCAST:
		MPI_Allreduce(sbuf, rbuf, (int)(n / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case ALLTOALL:
		MPI_Alltoall(sbuf, (int)n, MPI_BYTE, rbuf, (int)n, MPI_BYTE, MPI_COMM_WORLD);
		break;
	}
}

/* bytes of buffer a call needs */
static long need(int pat, long n)
{
	switch (pat) {
	case ELEMENT_SHIFT: return n * INFLIGHT;
	case OPEN_SHIFT_STRIDED: return n * STRIDE;
	case HALO2: case HALO4: return n * 4;
	case ALLTOALL: return n * nprocs;
	}
	return n;
}

/* --charge: the untimed calls of a neighbour pattern before its timed
 * ones (even: the shifts alternate direction). A barrier releases the
 * ranks up to log2(P) message times apart, and the pattern takes a few
 * calls to reach its pace. That skew then travels along the ranks for
 * many calls (on ncube2 a circular shift's slowest rank took 106, 101, 90
 * and 84 us a call after 12, 28, 40 and 64 calls at P = 256 and 64 bytes,
 * 81.4 after 136; on the cluster preset at P = 64 an open chain's 2.26 us
 * after 12 to 40 calls, 2.01 after 64), but the last rank's pace, which
 * measure() times, is the settled one from the 10th call on in each of
 * these (81.4 and 2.01 us; at P = 1024 on ncube2 an open shift of 1 KiB
 * 535 us after 34 calls, where the slowest rank took 623): 3 log2(P) + 4
 * calls, where the circular shift had P/2 + 8 and the open chains up to
 * P = 64 P + 8 while each rank's own time was taken. The element shift,
 * timed in a batch per rank, keeps a quarter of the circular shift's
 * former count (within 3% of 80 calls' at P = 64). */
static int settle = -1; /* --settle K: K untimed calls instead */

static int warm_up(int pat)
{
	int lg = 0;
	if (settle >= 0)
		return settle & ~1;
	while ((1 << lg) < nprocs)
		lg++;
	if (pat == ELEMENT_SHIFT)
		return (nprocs / 8 + 2) & ~1;
	return (3 * lg + 4) & ~1;
}


/* The time of one call, largest over the ranks, from calls repetitions:
 * the element shift in a batch, the others one barrier-separated call at a
 * time (median of the calls); with --charge the neighbour patterns back
 * to back, at the pace of the last rank (below). */
static double measure(int pat, long n, int calls)
{
	double t, *each, *worst, result;
	int i;
	if (pat == ELEMENT_SHIFT) {
		MPI_Barrier(MPI_COMM_WORLD);
		for (i = 0; charged && i < warm_up(pat); i++)
			call(pat, n);
		t = now();
		for (i = 0; i < calls; i++)
			call(pat, n);
		t = (now() - t) / calls;
		MPI_Allreduce(&t, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		return result / inflight();
	}
#ifdef PFLS_CAN_CHARGE
	/* --charge (SMPI): the neighbour patterns back to back, the shifts
	 * alternately right and left, as a stencil sends its boundaries to
	 * one neighbour and then the other. A barrier of a simulated NCUBE
	 * (a tree of 80 µs messages) lets the ranks go hundreds of µs apart,
	 * and a call timed after it times that skew: on ncube2 a 64-byte
	 * open shift took 128 µs after a barrier, 99 µs a shift alternating
	 * back to back, as in the kit's REDBLACK. The collectives keep the
	 * barrier. */
	if (charged && pat != BROADCAST && pat != REDUCTION_BROADCAST && pat != ALLTOALL) {
		double span[2], last[2];
		MPI_Barrier(MPI_COMM_WORLD);
		/* the timed calls come after warm_up(), when every call takes
		 * the same time: the time a stencil's sweeps take once they
		 * run. Their time is how fast the last rank gets through
		 * them: from the last rank's start of the first to the last
		 * rank's end of the last (SMPI's clock is the same on every
		 * rank). A rank's own few calls are not that pace where its
		 * calls take unequal times: SMPI's sends up to 64 KiB return
		 * before the data has left, a rank's next send shares its link
		 * with the one still going out, and on the cluster preset at
		 * P = 64 a rank of the open chain took 1.7 to 4.3 us a call
		 * over 4 calls of 16 KiB while the chain went at 2.66 us (its
		 * cross-leaf pair's 2 us and 16 KiB at 25 GB/s; the kit's
		 * Jacobi paid 2.66 a shift there): the largest of the ranks'
		 * own times had Jacobi's column strips 50% high at N = 4096 */
		for (i = 0; i < warm_up(pat); i++) {
			call(pat, n);
			reverse = !reverse;
		}
		span[0] = now();
		for (i = 0; i < calls; i++) {
			call(pat, n);
			reverse = !reverse;
		}
		reverse = 0;
		span[1] = now();
		MPI_Allreduce(span, last, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		return (last[1] - last[0]) / calls;
	}
#endif
	each = malloc(calls * sizeof *each);
	worst = malloc(calls * sizeof *worst);
	for (i = 0; i < calls; i++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t = now();
		call(pat, n);
		each[i] = now() - t;
	}
	MPI_Allreduce(each, worst, calls, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	result = median(worst, calls);
	free(each);
	free(worst);
	return result;
}

/* sizes: powers of two, dense around the small-message step (192-640 B)
 * and the eager/rendezvous switch (2-8 KiB and around a reported limit) */
static long sizes[128];
static int nsizes;
static long limits[32]; /* eager limits read from the library */
static int nlimits;

static void add_size(long n)
{
	int i;
	if (n < 0 || nsizes == 128)
		return;
	for (i = 0; i < nsizes; i++)
		if (sizes[i] == n)
			return;
	sizes[nsizes++] = n;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static void make_sizes(void)
{
	long n, top = quick ? 1L << 20 : 4L << 20;
	int i;
	if (ngiven > 0) {
		for (i = 0; i < ngiven; i++)
			add_size(given[i]);
		qsort(sizes, nsizes, sizeof sizes[0], cmp_long);
		return;
	}
	add_size(0);
	for (n = 8; n <= top; n *= 2)
		add_size(n);
	if (charged) {
		/* --charge (SMPI): a message costs the platform's start-up and
		 * bytes over bandwidth, in pieces where the platform's
		 * smpi/os, smpi/or or factors change (the powers of two
		 * bracket them), and the one protocol switch is SMPI's
		 * detached sends up to 64 KiB (smpi/send-is-detached-thresh):
		 * none of the real libraries' eager limits to look for */
		add_size(65536 - 64);
		add_size(65536 + 64);
		qsort(sizes, nsizes, sizeof sizes[0], cmp_long);
		return;
	}
	for (n = 192; n <= 640; n += quick ? 64 : 32)
		add_size(n);
	for (n = 2048; n <= 8192; n += quick ? 1024 : 512)
		add_size(n);
	for (i = 0; i < nlimits; i++) {
		long l = limits[i] - limits[i] % 8;
		if (l <= 64 || l > top)
			continue;
		add_size(l - 64);
		add_size(l);
		add_size(l + 64);
	}
	add_size(12288);
	add_size(24576);
	qsort(sizes, nsizes, sizeof sizes[0], cmp_long);
}

/* the largest size a pattern is measured at */
static long max_size(int pat)
{
	switch (pat) {
	case ELEMENT_SHIFT: return 16384;
	case OPEN_SHIFT_STRIDED: return quick ? 262144 : 1L << 20;
	case ALLTOALL: return (quick ? 1L << 18 : 1L << 20) / (nprocs > 4 ? nprocs / 4 : 1);
	}
	return sizes[nsizes - 1];
}

/* SimGrid's SMPI has no MPI tool interface (MPI_T): its mpi.h defines
 * SMPI_H. Build with -DPFLS_NO_MPI_T for any other library without it. */
#if defined(SMPI_H) && !defined(PFLS_NO_MPI_T)
#define PFLS_NO_MPI_T 1
#endif

#ifdef PFLS_NO_MPI_T
/* Without MPI_T the sizes are made dense around the eager limits that
 * libraries commonly use: 4 KiB (Open MPI shared memory), 12 KiB (Open
 * MPI InfiniBand), 64 KiB (Open MPI TCP; SMPI's detached-send threshold,
 * smpi/send-is-detached-thresh) and 128 KiB (MPICH ch3). No limit line
 * is written: the library reported none. */
static void read_limits(void)
{
	static const long common[] = {4096, 12288, 65536, 131072};
	size_t i;
	for (i = 0; i < sizeof common / sizeof common[0]; i++)
		limits[nlimits++] = common[i];
}
#else
/* Read the eager limits the library reports through the MPI tool
 * interface (Open MPI: one per transport); each one found is written on a
 * limit line and added to limits. */
static void read_limits(void)
{
	int provided, n, i;
	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
		return;
	MPI_T_cvar_get_num(&n);
	for (i = 0; i < n; i++) {
		char name[256], desc[8];
		int nlen = sizeof name, dlen = sizeof desc, verb, bind, scope;
		MPI_Datatype dt;
		MPI_T_enum et;
		if (MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &et, desc, &dlen, &bind, &scope) != MPI_SUCCESS)
			continue;
		/* Open MPI: btl_vader_eager_limit, ...; MPICH:
		 * MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE, ... */
		char lower[256];
		size_t k;
		for (k = 0; k < sizeof lower - 1 && name[k]; k++)
			lower[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k]);
		lower[k] = 0;
		if (!strstr(lower, "eager") || !(strstr(lower, "limit") || strstr(lower, "size")) || bind != MPI_T_BIND_NO_OBJECT)
			continue;
		MPI_T_cvar_handle h;
		int count;
		unsigned long long v = 0;
		if (MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS)
			continue;
		if (count == 1) {
			if (dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_UNSIGNED_LONG || dt == MPI_LONG_LONG || dt == MPI_LONG) {
				MPI_T_cvar_read(h, &v);
			} else if (dt == MPI_INT || dt == MPI_UNSIGNED) {
				unsigned u = 0;
				MPI_T_cvar_read(h, &u);
				v = u;
			}
		}
		MPI_T_cvar_handle_free(&h);
		if (v > 0 && v < (1ULL << 30)) {
			if (rank == 0)
				printf("limit %s %llu\n", name, v);
			if (nlimits < 32)
				limits[nlimits++] = (long)v;
		}
	}
	MPI_T_finalize();
}
#endif

/* Whether pattern pat is measured at n bytes: up to its max_size, and
 * under --charge at P >= 64 the all-to-all only at 8, 64, 512, ... bytes.
 * Its simulated time is a straight line in the size (SMPI's messages
 * cost start-up plus bytes over bandwidth, and the all-to-all sends P - 1
 * of them a rank), so a few sizes fix the curve, and each call costs SMPI
 * P(P - 1) messages: 4 s of this machine at P = 256 on ncube2. */
static int measured(int pat, long n)
{
	long k;
	if (only_set && !only[pat])
		return 0;
	if (pat == GRID_SHIFT1 || pat == GRID_SHIFT2) {
		int px, py;
		grid2(nprocs, &px, &py);
		if (py < 2)
			return 0; /* a 1 x P grid: the open shift */
	}
	if (n > max_size(pat) && ngiven == 0)
		return 0;
	if (ngiven > 0 || !charged || pat != ALLTOALL || nprocs < 64)
		return 1;
	for (k = 8; k <= n; k *= 8)
		if (k == n)
			return 1;
	return 0;
}

#ifdef PFLS_CAN_CHARGE
/* --charge (SMPI): a level of a binomial broadcast tree, one line per
 * stride m (1, 2, 4, ... below P) and size,
 *
 *   comm tree-level-M BYTES MEAN MEAN MEAN 1
 *
 * the time from a parent's start of its send to a child M relative ranks
 * above it to the child's end of the receive, the mean over the tree's
 * pairs M apart (simulated times repeat exactly: one pass, no spread).
 * The trees are MPI's binomial tree (the root sends to relative ranks
 * P/2, P/4, ..., 1; each receiver forwards to the ranks below its lowest
 * set bit, the largest first; SMPI's MPI_Bcast for short messages), run
 * with MPI_Send from up to 8 roots. A level's pairs M apart start at
 * relative ranks 0, 2M, 4M, ..., so which pairs of ranks they are
 * depends on the root modulo 2M: root r is r (1 + 8 + 64 + ...) modulo
 * P, whose every 3 consecutive bits take all 8 values over the 8 roots,
 * so the roots are spread modulo every power of two (r P/8 + r, spread
 * at P = 64, left the roots within 0 to 7 modulo 32 at P = 256, and the
 * pairs 16 apart on the cluster preset never crossing between its
 * leaves of 32: 1.01 us where half the pairs take 2). Every receive
 * is posted before a barrier and the root waits, after it, longer than
 * the barrier lets the ranks go apart, so each child waits in its
 * receive and a pair's time is its message's alone, with the parent's
 * other sends going out around it (SMPI's clock is the same on every
 * rank). Where pairs of ranks differ in distance (a fat tree's leaves, a
 * torus) a tree's levels do: its last level's pairs are mostly
 * neighbours, its first's half the machine apart, and the broadcast's
 * own time (from rank 0 alone) and the circular shift's (its slowest
 * pair) are neither. The sizes stop below 64 KiB: up to there SMPI's
 * sends return before the data has left (smpi/send-is-detached-thresh),
 * a parent's next sends share its link with the one going out (on the
 * cluster preset at P = 16 a pair 8 apart took 11.4 us at 65472 bytes,
 * where all pairs are 1 us and 25 GB/s), and from 64 KiB on each send
 * waits for its transfer (3.6 us at 65536): a step down that the fit of
 * a curve, which repairs steps down, turns into one line 5% high at
 * 0 bytes. Above, the curve goes on along its last segment. */
static void tree_levels(void)
{
	double spread[2], ext[2], margin, *mine, *all = NULL;
	int s, lg = 0, nroots = nprocs < 8 ? nprocs : 8, width, r, j;
	long spread8 = 0, d;
	while ((1 << lg) < nprocs)
		lg++;
	for (d = 1; d < nprocs; d *= 8)
		spread8 += d;
	/* per root: the receive's end, then the start of the send to
	 * relative rank + 2^j for each j */
	width = lg + 1;
	mine = malloc((size_t)nroots * width * sizeof *mine);
	if (rank == 0)
		all = malloc((size_t)nroots * width * nprocs * sizeof *all);
	/* how far apart a barrier lets the ranks go */
	MPI_Barrier(MPI_COMM_WORLD);
	spread[0] = now();
	spread[1] = -spread[0];
	MPI_Allreduce(spread, ext, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	margin = 2 * (ext[0] + ext[1]) + 1e-5;
	for (s = 0; s < nsizes; s++) {
		long n = sizes[s];
		if (!measured(BROADCAST, n) || n >= 65536)
			continue;
		for (r = 0; r < nroots; r++) {
			int root = (int)(r * spread8 % nprocs);
			int rel = (rank - root + nprocs) % nprocs, mask;
			double *row = mine + r * width;
			MPI_Request req = MPI_REQUEST_NULL;
			for (j = 0; j < width; j++)
				row[j] = 0;
			if (rel != 0)
				MPI_Irecv(rbuf, (int)n, MPI_BYTE, (rank - (rel & -rel) + nprocs) % nprocs, 9, MPI_COMM_WORLD, &req);
			MPI_Barrier(MPI_COMM_WORLD);
			if (rel == 0) {
				usleep((useconds_t)(margin * 1e6) + 1);
				mask = 1 << lg;
			} else {
				MPI_Wait(&req, MPI_STATUS_IGNORE);
				row[0] = now();
				mask = rel & -rel;
			}
			for (j = lg - 1; j >= 0; j--) {
				if ((1 << j) >= mask || rel + (1 << j) >= nprocs)
					continue;
				row[1 + j] = now();
				MPI_Send(sbuf, (int)n, MPI_BYTE, (rank + (1 << j)) % nprocs, 9, MPI_COMM_WORLD);
			}
		}
		MPI_Gather(mine, nroots * width, MPI_DOUBLE, all, nroots * width, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank != 0)
			continue;
		for (j = 0; j < lg; j++) {
			double sum = 0;
			int pairs = 0, rel;
			for (r = 0; r < nroots; r++) {
				int root = (int)(r * spread8 % nprocs);
				for (rel = 1 << j; rel < nprocs; rel += 2 << j) {
					int child = (root + rel) % nprocs, parent = (root + rel - (1 << j)) % nprocs;
					sum += all[(child * nroots + r) * width] - all[(parent * nroots + r) * width + 1 + j];
					pairs++;
				}
			}
			printf("comm tree-level-%d %ld %.6e %.6e %.6e 1\n", 1 << j, n, sum / pairs, sum / pairs, sum / pairs);
		}
		fflush(stdout);
	}
	free(mine);
	free(all);
}
#endif

static void comm_all(void)
{
	int pat, s, k, done = 0, total = 0;
	int calls[NPATTERNS][128];
	double *t[NPATTERNS][128];
	const double target = quick ? 2e-3 : 8e-3; /* seconds of calls per point */

	for (pat = 0; pat < NPATTERNS; pat++)
		for (s = 0; s < nsizes; s++)
			if (measured(pat, sizes[s]))
				total++;
	total *= passes;
	for (pat = 0; pat < NPATTERNS; pat++)
		for (s = 0; s < nsizes; s++) {
			t[pat][s] = calloc(passes, sizeof(double));
			calls[pat][s] = 0;
		}
	for (k = 0; k < passes; k++) {
		for (pat = 0; pat < NPATTERNS; pat++) {
			for (s = 0; s < nsizes; s++) {
				long n = sizes[s];
				if (!measured(pat, n))
					continue;
				if (rank == 0) {
					printf("progress %d %d %s %ld\n", done, total, pattern_name[pat], n);
					fflush(stdout);
				}
				if (calls[pat][s] == 0 && charged) {
					/* --charge: calls repeat exactly once warm, and
					 * each costs SMPI real time (at P = 256 an
					 * all-to-all costs seconds): one untimed call,
					 * then 2 calls of a collective (each after a
					 * barrier: the median), 4 of a neighbour pattern
					 * (after warm_up(): the mean); --once: a
					 * collective's first call, timed (at P = 64 on
					 * ncube2 within 0.5% of the later calls, equal
					 * from 128 bytes on) */
					int coll = pat == BROADCAST || pat == REDUCTION_BROADCAST || pat == ALLTOALL;
					if (coll && !once)
						measure(pat, n, 1);
					calls[pat][s] = coll ? (once ? 1 : 2) : 4;
				} else if (calls[pat][s] == 0) {
					/* warm up and size the batch */
					double one = measure(pat, n, 3);
					/* --charge: simulated calls repeat exactly, and each
					 * costs SMPI real time however short it is (a 1 µs
					 * call of the cluster preset would get 2000) */
					int cap = charged ? 20 : 2000;
					int c = one > 0 ? (int)(target / one) : 1000;
					c = c < 5 ? 5 : c > cap ? cap : c;
					MPI_Bcast(&c, 1, MPI_INT, 0, MPI_COMM_WORLD);
					calls[pat][s] = c;
				}
				t[pat][s][k] = measure(pat, n, calls[pat][s]);
				done++;
			}
		}
	}
	for (pat = 0; pat < NPATTERNS; pat++)
		for (s = 0; s < nsizes; s++) {
			if (!measured(pat, sizes[s]))
				continue;
			double lo = t[pat][s][0], hi = lo;
			for (k = 0; k < passes; k++) {
				lo = fmin(lo, t[pat][s][k]);
				hi = fmax(hi, t[pat][s][k]);
			}
			double med = median(t[pat][s], passes);
			if (rank == 0)
				printf("comm %s %ld %.6e %.6e %.6e %d\n", pattern_name[pat], sizes[s], med, lo, hi, passes);
			free(t[pat][s]);
		}
	fflush(stdout);
}

/* ---- operation costs ---- */

enum { K_STORE, K_COPY, K_ADD, K_MUL, K_DIV, K_FDIV, K_IDIV, K_SQRT, K_EXP, K_POW, K_SELECT, K_CALL, K_COPY2, K_STEN5, K_REDBLACK, K_STEN5F, K_MEMCPY, NKERNELS };

/* a procedure the compiler may not inline, for the cost of a call */
__attribute__((noinline)) static double bump(double v) { return v + 1.0; }

static double sink;

enum { SMALL = 4096 }; /* elements of the float and integer kernel arrays */

/* charge the operations of elems elements of kernel k to this rank's
 * simulated host (--charge) */
static void charge(int k, double elems)
{
#ifdef PFLS_CAN_CHARGE
	/* the operations of one element of each kernel (see the top of the
	 * file): call adds 1 in bump, stencil5 makes 4 additions, redblack 4
	 * additions and 2 multiplications */
	static const double flops[NKERNELS] = {
		[K_STORE] = 0, [K_COPY] = 0, [K_ADD] = 1, [K_MUL] = 1, [K_DIV] = 4,
		[K_FDIV] = 4, [K_IDIV] = 4, [K_SQRT] = 4, [K_EXP] = 8, [K_POW] = 8,
		[K_SELECT] = 1, [K_CALL] = 1, [K_COPY2] = 0, [K_STEN5] = 4, [K_REDBLACK] = 6,
		[K_STEN5F] = 4, [K_MEMCPY] = 0,
	};
	if (charged && flops[k] > 0)
		smpi_execute_flops(flops[k] * elems);
#else
	(void)k;
	(void)elems;
#endif
}

/* seconds per element of kernel k over n elements, repeated reps times */
#if defined(__GNUC__) && !defined(__clang__)
/* keep the copy loops loops: GCC would call memcpy for them, whose speed
 * depends on how the two arrays sit against each other in a page */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static double kernel(int k, long n, long reps, int place)
{
	static double *x, *y, *z;
	static float *fx, *fy, *fz;
	static long *ix, *iy, *iz;
	static long have, placed = -1;
	long i, r;
	double t;
	/* --charge: the loops do not run (see below), so no arrays either:
	 * 1024 ranks of 48 MiB would not fit in this machine's memory */
	if (!charged && (n > have || place != placed)) {
		/* One block for all the arrays at chosen offsets modulo 4 KiB:
		 * where a target is close to a source modulo 4 KiB, loads wait
		 * for unrelated stores (4K aliasing), which made one kernel or
		 * another twice as slow from one run to the next. */
		static char *block;
		long bytes = n * 8 + 4096, off = 0;
		free(block);
		/* x, y, z of n doubles; the float and integer arrays only of the
		 * L1 size their kernels run at */
		block = malloc(3 * bytes + 6 * (SMALL * 8 + 4096) + 2 * 4096);
		if (!block) {
			fprintf(stderr, "pfls-train: out of memory for kernel arrays of %ld elements\n", n);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
#define CARVE(p, size) (p = (void *)(block + off + skew[slot++ % 3] + place * 192 % 1024), off += (size))
		/* the target y half a page from the sources x and z: a load
		 * aliases a pending store only d/8 iterations ahead, beyond what
		 * the processor keeps in flight */
		static const long skew[3] = {0, 2048, 1024};
		int slot = 0;
		CARVE(x, bytes); CARVE(y, bytes); CARVE(z, bytes);
		CARVE(fx, SMALL * 8 + 4096); CARVE(fy, SMALL * 8 + 4096); CARVE(fz, SMALL * 8 + 4096);
		CARVE(ix, SMALL * 8 + 4096); CARVE(iy, SMALL * 8 + 4096); CARVE(iz, SMALL * 8 + 4096);
#undef CARVE
		for (i = 0; i < n; i++) {
			x[i] = 1.0 + (i % 7) * 0.125; y[i] = 0; z[i] = 1.5 + (i % 5) * 0.25;
		}
		for (i = 0; i < SMALL; i++) {
			fx[i] = (float)(1.0 + (i % 7) * 0.125); fy[i] = 0; fz[i] = (float)(1.5 + (i % 5) * 0.25);
			ix[i] = 1000 + i % 97; iy[i] = 0; iz[i] = 3 + i % 11;
		}
		have = n;
		placed = place;
	}
	if ((k == K_FDIV || k == K_IDIV) && n > SMALL)
		n = SMALL;
	t = now();
	/* --charge: the charge below is the kernel's time; running the loops
	 * for real would only cost this machine's time, once per rank */
	for (r = 0; r < (charged ? 0 : reps); r++) {
		double c = 1.0 + r * 1e-9;
		switch (k) {
		case K_STORE: for (i = 0; i < n; i++) y[i] = c; break;
		case K_COPY: for (i = 0; i < n; i++) y[i] = x[i]; break;
		case K_ADD: for (i = 0; i < n; i++) y[i] = x[i] + z[i]; break;
		case K_MUL: for (i = 0; i < n; i++) y[i] = x[i] * z[i]; break;
		case K_DIV: for (i = 0; i < n; i++) y[i] = x[i] / z[i]; break;
		case K_FDIV: for (i = 0; i < n; i++) fy[i] = fx[i] / fz[i]; break;
		case K_IDIV: for (i = 0; i < n; i++) iy[i] = ix[i] / iz[i]; break;
		case K_SQRT: for (i = 0; i < n; i++) y[i] = sqrt(x[i]); break;
		case K_EXP: for (i = 0; i < n; i++) y[i] = exp(x[i]); break;
		case K_POW: for (i = 0; i < n; i++) y[i] = pow(x[i], z[i]); break;
		case K_SELECT: for (i = 0; i < n; i++) y[i] = x[i] > z[i] ? x[i] : z[i]; break;
		case K_CALL: for (i = 0; i < n; i++) y[i] = bump(x[i]); break;
		case K_COPY2: for (i = 0; i < n; i += 2) y[i] = x[i]; break;
		case K_STEN5:
			for (i = 2; i < n - 2; i++)
				y[i] = x[i - 2] + x[i - 1] + x[i] + x[i + 1] + x[i + 2];
			break;
		case K_STEN5F:
			for (i = 2; i < n - 2; i++)
				fy[i] = fx[i - 2] + fx[i - 1] + fx[i] + fx[i + 1] + fx[i + 2];
			break;
		case K_REDBLACK:
			for (i = 1; i < n - 1; i += 2)
				y[i] = 0.25 * (y[i - 1] + y[i + 1] + x[i - 1] + x[i + 1]) + 0.5 * y[i];
			break;
		case K_MEMCPY: memcpy(y, x, (size_t)n * sizeof *y); break;
		}
		/* keep the results alive across repetitions */
		sink += y[r % n] + fy[r % SMALL] + (double)iy[r % SMALL];
	}
	charge(k, (double)(k == K_COPY2 || k == K_REDBLACK ? n / 2 : n) * reps);
	/* the strided copy touches every second element */
	return (now() - t) / ((double)(k == K_COPY2 || k == K_REDBLACK ? n / 2 : n) * reps);
}

/* fastest of the passes, each with the arrays at other addresses
 * (interference only ever adds time; a placement of the arrays may halve
 * a kernel's speed for a whole run), largest over ranks */
/* One timed pass of a kernel: seconds per element, the arrays placed by
 * place. */
static double kernel_pass(int k, long n, int place)
{
	long reps = (quick ? 2000000L : 8000000L) / n;
	if (reps < 2)
		reps = 2;
	kernel(k, n, 1, place); /* warm the caches and the branch predictors */
	/* all ranks run the same kernel at the same time, as in a parallel
	 * loop: ranks that drift apart would time one kernel beside another */
	MPI_Barrier(MPI_COMM_WORLD);
	return kernel(k, n, reps, place);
}

/* What ops_all measures: a kernel at an array size. */
struct job {
	int k;
	long n;
	const char *line; /* "kernel NAME BYTES" or "trip N" */
	long scale;       /* the trip lines print the time of a whole loop */
	double best;
};

static void ops_all(void)
{
	/* L1-resident: arrays of 1024 doubles (8 KiB each) */
	const long n1 = 1024;
	static const struct { int k; const char *name; } kernels[] = {
		{K_STORE, "store"}, {K_COPY, "copy"}, {K_ADD, "add"}, {K_MUL, "mul"},
		{K_DIV, "div"}, {K_FDIV, "div.real"}, {K_IDIV, "div.int"},
		{K_SQRT, "sqrt"}, {K_EXP, "exp"}, {K_POW, "pow"}, {K_SELECT, "select"},
		{K_CALL, "call"}, {K_COPY2, "copy.strided"},
		{K_STEN5, "stencil5"}, {K_REDBLACK, "redblack"}, {K_STEN5F, "stencil5.real"},
	};
	/* every doubling from 1 MiB to 16 MiB, where the caches of today's
	 * processors end (L2 of 1-2 MiB a core, L3 of some MiB a core):
	 * between two sizes the estimator interpolates; the quick run's
	 * step from 1 to 32 MiB priced a Jacobi sweep of 1.06 MB, which L2
	 * held, at 12 times its time in L2 (issue 16) */
	long ws[] = {16384, 131072, 1048576, 2097152, 4194304, 8388608, 16777216, 67108864};
	long tn[] = {4, 8, 16, 64, 256, 1024};
	struct job jobs[64];
	char lines[64][64];
	int i, p, njobs = 0, nws = (int)(sizeof ws / sizeof ws[0]), ntn = (int)(sizeof tn / sizeof tn[0]);
	int nk = (int)(sizeof kernels / sizeof kernels[0]);
	/* charged kernels take the same simulated time in every pass */
	int np = charged ? 1 : passes < 5 ? 5 : passes;
	if (quick)
		ws[nws - 1] = 33554432;
	if (rank == 0) {
		printf("progress 0 1 operations\n");
		fflush(stdout);
	}
	/* --patterns (a run at a large P for some curves alone): the L1
	 * copy kernel only, which every output has; pfls takes the
	 * operation times from the run with the fewest processors (at
	 * P = 1024 on ncube2 the whole set took a minute here: its
	 * barriers) */
	if (only_set) {
		snprintf(lines[njobs], sizeof lines[0], "kernel copy %ld", n1 * 16);
		jobs[njobs] = (struct job){K_COPY, n1, lines[njobs], 1, INFINITY};
		njobs++;
		nk = nws = ntn = 0;
	}
	for (i = 0; i < nk; i++) {
		snprintf(lines[njobs], sizeof lines[0], "kernel %s %ld", kernels[i].name, n1 * 16);
		jobs[njobs] = (struct job){kernels[i].k, n1, lines[njobs], 1, INFINITY};
		njobs++;
	}
	for (i = 0; i < nws; i++) {
		/* two arrays of doubles: source and target */
		snprintf(lines[njobs], sizeof lines[0], "kernel copy %ld", ws[i]);
		jobs[njobs] = (struct job){K_COPY, ws[i] / 16, lines[njobs], 1, INFINITY};
		njobs++;
		snprintf(lines[njobs], sizeof lines[0], "kernel memcpy %ld", ws[i]);
		jobs[njobs] = (struct job){K_MEMCPY, ws[i] / 16, lines[njobs], 1, INFINITY};
		njobs++;
	}
	for (i = 0; i < ntn; i++) {
		snprintf(lines[njobs], sizeof lines[0], "trip %ld", tn[i]);
		jobs[njobs] = (struct job){K_ADD, tn[i], lines[njobs], tn[i], INFINITY};
		njobs++;
	}
	/* Pass after pass over all the kernels, each pass with the arrays
	 * placed anew, keeping each kernel's fastest pass: a slow spell of
	 * the machine, or a placement of the arrays that halves a kernel's
	 * speed, then bends no kernel (interference only ever adds time). */
	for (p = 0; p < np; p++)
		for (i = 0; i < njobs; i++)
			jobs[i].best = fmin(jobs[i].best, kernel_pass(jobs[i].k, jobs[i].n, p));
	for (i = 0; i < njobs; i++) {
		double worst;
		MPI_Allreduce(&jobs[i].best, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		if (rank == 0)
			printf("%s %.6e\n", jobs[i].line, worst * jobs[i].scale);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int i, len;
	char version[MPI_MAX_LIBRARY_VERSION_STRING];

	passes = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
			passes = atoi(argv[++i]);
		else if (strcmp(argv[i], "--charge") == 0)
			charged = 1;
		else if (strcmp(argv[i], "--once") == 0)
			once = 1;
		else if (strcmp(argv[i], "--settle") == 0 && i + 1 < argc)
			settle = atoi(argv[++i]);
		else if (strcmp(argv[i], "--patterns") == 0 && i + 1 < argc) {
			char *list = argv[++i], *name;
			for (name = strtok(list, ","); name; name = strtok(NULL, ",")) {
				int pat;
				for (pat = 0; pat < NPATTERNS && strcmp(name, pattern_name[pat]) != 0; pat++)
					;
				if (pat == NPATTERNS) {
					fprintf(stderr, "pfls-train: --patterns: unknown pattern %s\n", name);
					return 2;
				}
				only[pat] = only_set = 1;
			}
		} else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
			char *list = argv[++i], *num, *end;
			for (num = strtok(list, ","); num; num = strtok(NULL, ",")) {
				long n = strtol(num, &end, 10);
				if (*end || n < 0 || n > (64L << 20) || ngiven == 128) {
					fprintf(stderr, "pfls-train: --sizes: %s is not a size in bytes up to 64 MiB\n", num);
					return 2;
				}
				given[ngiven++] = n;
			}
		} else {
			fprintf(stderr, "pfls-train: unknown argument %s (usage: pfls-train [--quick] [--passes K] [--charge] [--patterns P,...] [--sizes N,...] [--once] [--settle K])\n", argv[i]);
			return 2;
		}
	}
#ifndef PFLS_CAN_CHARGE
	if (charged) {
		fprintf(stderr, "pfls-train: --charge needs SimGrid's SMPI (build with smpicc)\n");
		return 2;
	}
#endif
	if (passes <= 0)
		passes = quick ? 3 : 7;
	if (passes > 64)
		passes = 64;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	if (rank == 0) {
		printf("pfls-train 1\nprocs %d\n", nprocs);
		MPI_Get_library_version(version, &len);
		version[strcspn(version, "\r\n")] = 0;
		printf("mpi %s\n", version);
	}
	/* rank 0 decides the sizes (ranks on other nodes may see other
	 * transports and limits) */
	read_limits();
	if (rank == 0)
		make_sizes();
	MPI_Bcast(&nsizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(sizes, nsizes, MPI_LONG, 0, MPI_COMM_WORLD);

	bufsize = 0;
	for (i = 0; i < NPATTERNS; i++) {
		int s;
		for (s = 0; s < nsizes; s++)
			if (measured(i, sizes[s]) && need(i, sizes[s]) > bufsize)
				bufsize = need(i, sizes[s]);
	}
#ifdef PFLS_CAN_CHARGE
	/* --charge: what the messages hold does not matter, so all ranks'
	 * buffers share one block of memory (SMPI's shared malloc): 1024
	 * ranks of private 4 MiB buffers would take 8 GiB here */
	if (charged) {
		sbuf = SMPI_SHARED_MALLOC(bufsize + 64);
		rbuf = SMPI_SHARED_MALLOC(bufsize + 64);
	} else
#endif
	{
		sbuf = malloc(bufsize + 64);
		rbuf = malloc(bufsize + 64);
	}
	if (!sbuf || !rbuf) {
		fprintf(stderr, "pfls-train: out of memory for message buffers of %ld bytes\n", bufsize);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(sbuf, 1, bufsize + 64);
	memset(rbuf, 0, bufsize + 64);

	ops_all();
	if (nprocs > 1)
		comm_all();
#ifdef PFLS_CAN_CHARGE
	if (nprocs > 1 && charged)
		tree_levels();
#endif
	if (rank == 0) {
		printf("done\n");
		fflush(stdout);
	}
	if (sink == 12345.678)
		fprintf(stderr, "%g\n", sink);
	MPI_Finalize();
	return 0;
}
