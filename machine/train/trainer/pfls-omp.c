/*
 * pfls-omp: the shared-memory kernels of pfls's training set.
 *
 * It measures, at 1, 2, 4, ... threads and at the number given with
 * --threads (default: omp_get_num_procs()), what an OpenMP loop costs
 * beyond its iterations:
 *
 *   fork       an empty "parallel" region: the fork and the join (with its
 *              implicit barrier), seconds per region
 *   barrier    one "barrier" inside a region, seconds per barrier
 *   reduction  a "parallel for reduction(+:s)" with one iteration per
 *              thread, less the same loop without the reduction: seconds
 *              per reduction of one value
 *   chunk      a "schedule(dynamic,1)" loop less the same loop with
 *              "schedule(static)", divided by the chunks one thread takes:
 *              seconds per chunk handed out
 *   bandwidth  a STREAM-like triad a(i) = b(i) + s*c(i) over arrays far
 *              larger than the caches: bytes per second (24 bytes per
 *              element, as STREAM counts them)
 *
 * Each figure is the median of PASSES passes of REPS repetitions. Output,
 * one line per figure (read by machine/train's ParseOpenMP):
 *
 *   omp-train 1 procs 2
 *   omp fork 1 2.1e-07
 *   ...
 *   omp end
 *
 * Written for pfls (not derived from the EPCC microbenchmarks, whose
 * method of subtracting a reference loop it follows).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PASSES 7
#define REPS 2000
#define STREAM_N (4 * 1024 * 1024) /* 3 arrays of 32 MB */

static double median(double *v, int n) {
	for (int i = 1; i < n; i++) {
		double x = v[i];
		int j = i - 1;
		while (j >= 0 && v[j] > x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static volatile double sink;

static double fork_time(int t, int reps) {
	double t0 = omp_get_wtime();
	for (int r = 0; r < reps; r++) {
#pragma omp parallel num_threads(t)
		{
			sink = 0;
		}
	}
	return (omp_get_wtime() - t0) / reps;
}

static double barrier_time(int t, int reps) {
	double t0 = omp_get_wtime();
#pragma omp parallel num_threads(t)
	{
		for (int r = 0; r < reps; r++) {
#pragma omp barrier
		}
	}
	double all = omp_get_wtime() - t0;
	return (all - fork_time(t, 1)) / reps;
}

static double loop_time(int t, int reps, int reduce) {
	double t0 = omp_get_wtime();
	for (int r = 0; r < reps; r++) {
		double s = 0;
		if (reduce) {
#pragma omp parallel for num_threads(t) reduction(+ : s)
			for (int i = 0; i < t; i++)
				s += i;
		} else {
#pragma omp parallel for num_threads(t)
			for (int i = 0; i < t; i++)
				sink = i;
		}
		sink = s;
	}
	return (omp_get_wtime() - t0) / reps;
}

static double sched_time(int t, int n, int dynamic) {
	double t0 = omp_get_wtime();
	if (dynamic) {
#pragma omp parallel for num_threads(t) schedule(dynamic, 1)
		for (int i = 0; i < n; i++)
			sink = i;
	} else {
#pragma omp parallel for num_threads(t) schedule(static)
		for (int i = 0; i < n; i++)
			sink = i;
	}
	return omp_get_wtime() - t0;
}

static double *a, *b, *c;

static double triad(int t) {
	double s = 3.0;
	double t0 = omp_get_wtime();
#pragma omp parallel for num_threads(t) schedule(static)
	for (long i = 0; i < STREAM_N; i++)
		a[i] = b[i] + s * c[i];
	double dt = omp_get_wtime() - t0;
	return 24.0 * STREAM_N / dt;
}

int main(int argc, char **argv) {
	int max = omp_get_num_procs();
	int quick = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
			max = atoi(argv[++i]);
	}
	if (max < 1)
		max = 1;
	int reps = quick ? REPS / 10 : REPS;
	a = malloc(sizeof(double) * STREAM_N);
	b = malloc(sizeof(double) * STREAM_N);
	c = malloc(sizeof(double) * STREAM_N);
	if (!a || !b || !c) {
		fprintf(stderr, "pfls-omp: out of memory for the triad arrays\n");
		return 1;
	}
#pragma omp parallel for schedule(static)
	for (long i = 0; i < STREAM_N; i++) {
		a[i] = 0;
		b[i] = 1;
		c[i] = 2;
	}
	printf("omp-train 1 procs %d\n", omp_get_num_procs());
	fflush(stdout);
	/* 1, 2, 4, ... and the largest count: the growth shows on a log scale. */
	for (int t = 1; t <= max; t = (t < max && 2 * t > max) ? max : 2 * t) {
		double v[PASSES];
		for (int p = 0; p < PASSES; p++)
			v[p] = fork_time(t, reps);
		double fork = median(v, PASSES);
		printf("omp fork %d %.6e\n", t, fork);
		for (int p = 0; p < PASSES; p++)
			v[p] = barrier_time(t, reps);
		printf("omp barrier %d %.6e\n", t, median(v, PASSES));
		for (int p = 0; p < PASSES; p++)
			v[p] = loop_time(t, reps, 1) - loop_time(t, reps, 0);
		double red = median(v, PASSES);
		printf("omp reduction %d %.6e\n", t, red > 0 ? red : 0);
		int n = 1000 * t;
		for (int p = 0; p < PASSES; p++)
			v[p] = (sched_time(t, n, 1) - sched_time(t, n, 0)) / (n / t);
		double ch = median(v, PASSES);
		printf("omp chunk %d %.6e\n", t, ch > 0 ? ch : 0);
		for (int p = 0; p < PASSES; p++)
			v[p] = triad(t);
		printf("omp bandwidth %d %.6e\n", t, median(v, PASSES));
		fflush(stdout);
	}
	printf("omp end\n");
	free(a);
	free(b);
	free(c);
	return 0;
}
