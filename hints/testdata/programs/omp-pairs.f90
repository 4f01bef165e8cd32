! Pair statistics of n particles in a box with OpenMP: a COLLAPSE(2)
! set-up loop, the triangular pair loop (i < j, Newton's third law) with
! schedule(dynamic, 8), reductions on scalars, on a MAX and on a whole
! array (the distance histogram), ATOMIC updates of the forces, and the
! closest pair found per thread and merged in a CRITICAL section after a
! NOWAIT loop.
!
! Expert's view, and why:
! - COLLAPSE(2) joins the J and K loops into one iteration space of
!   n × 3 iterations shared among the threads (OpenMP 5.2 §4.4.3): the
!   span is one (J, K) iteration, X(K,J) = 10·X(K,J) (4 + 4 + 1 = 9) and
!   F(K,J) = 0 (4): 13; the work 2000 × 3 × 13 = 78000.
! - The pair loops are triangular: iteration i does n - i inner steps,
!   so a static schedule would leave the first threads with most of the
!   work; dynamic chunks of 8 (1999 iterations, 250 chunks) balance it,
!   at one chunk hand-out per chunk. The search loop has no shared
!   update at all: a speed-up of 12-16 on 16 threads.
! - Reductions (OpenMP 5.2 §5.5): EPOT (+), RMAX (MAX) and the whole
!   integer array HIST (+, 50 elements: each thread adds its private
!   copy into the shared one) are combined once per loop, not per
!   iteration, and are no data race.
! - ATOMIC (§15.8.4): F(K,J) for J of another thread's I is updated by
!   several threads; an atomic update is a locked read-modify-write that
!   the estimate must not take as free without saying so.
! - The CRITICAL section stands after the NOWAIT loop, once per thread,
!   not in the loop: it neither serializes the loop nor belongs to its
!   estimate; the loop ends without a barrier (NOWAIT), the CRITICAL's
!   mutual exclusion alone makes the merge safe, and END PARALLEL's
!   barrier ends the region.
! - Counts (all-one): in the search loop R = ... is 27 (each X(1,I) 3,
!   each difference squared 8, three of them 24, two additions, R 1);
!   IF (R < MYRMIN) 2 for the condition plus ½ of the three
!   assignments' 6: 5; a J step 32. The J loop 2 (its bound I + 1) +
!   32·(n - i); the I loop Σ_{i=1}^{1999} (2 + 32·(2000 - i)) + 1 (the
!   bound n - 1) = 2·1999 + 32·1999000 + 1 = 63971999; its span, the
!   largest iteration (i = 1) plus the bound: 2 + 32·1999 + 1 = 63971.
!@procs(16)
program pair_stats
  implicit none
  integer, parameter :: n = 2000, nb = 50
  real(8) :: x(3, n), f(3, n), d(3)
  real(8) :: epot, rmax, rmin, myrmin, r2, r, fr
  integer :: hist(nb)
  integer :: i, j, k, b, imin, jmin, myi, myj

  call random_number(x)
  !$omp parallel do collapse(2)
  !@estimate(report "2 loops collapsed") !@hover("\*\*Span\*\*[^`]*`13`")
  do j = 1, n
    do k = 1, 3
      x(k, j) = 10.0d0 * x(k, j)
      f(k, j) = 0.0d0
    end do
  end do
  !$omp end parallel do

  epot = 0.0d0
  rmax = 0.0d0
  hist = 0
  !$omp parallel do schedule(dynamic, 8) private(j, k, d, r2, r, fr, b) &
  !$omp&  reduction(+:epot, hist) reduction(max:rmax)
  !@estimate(report "schedule dynamic,8, 16 threads")
  !@estimate(report "reduction of EPOT \(\+\) over 16 threads")
  !@estimate(report "reduction of HIST \(\+, 50 elements\) over 16 threads")
  !@estimate(report "reduction of RMAX \(MAX\) over 16 threads")
  !@estimate(report "ATOMIC update at line 79")
  !@estimate(report "ATOMIC update at line 81")
  do i = 1, n - 1
    do j = i + 1, n
      d = x(:, i) - x(:, j)
      r2 = d(1)**2 + d(2)**2 + d(3)**2
      r = sqrt(r2)
      rmax = max(rmax, r)
      b = min(nb, 1 + int(r / 0.5d0))
      hist(b) = hist(b) + 1
      fr = 1.0d0 / (r2 * r)
      epot = epot + 1.0d0 / r
      do k = 1, 3
        !$omp atomic update
        f(k, i) = f(k, i) + fr * d(k)
        !$omp atomic update
        f(k, j) = f(k, j) - fr * d(k)
      end do
    end do
  end do
  !$omp end parallel do

  rmin = huge(1.0d0)
  !$omp parallel private(i, j, r, myrmin, myi, myj)
  myrmin = huge(1.0d0)
  myi = 0
  myj = 0
  !$omp do schedule(dynamic, 8)
  !@estimate(scales "12-16")
  !@estimate(report "no barrier at the end of the loop at line 98 \(NOWAIT\)")
  !@estimate(noreport "CRITICAL")
  !@hover("^\*\*Work\*\* \(DO\): `63971999`") !@hover("\*\*Span\*\*[^`]*`63971`")
  do i = 1, n - 1
    do j = i + 1, n
      r = (x(1, i) - x(1, j))**2 + (x(2, i) - x(2, j))**2 + (x(3, i) - x(3, j))**2
      if (r < myrmin) then
        myrmin = r
        myi = i
        myj = j
      end if
    end do
  end do
  !$omp end do nowait
  !$omp critical (closest)
  if (myrmin < rmin) then
    rmin = myrmin
    imin = myi
    jmin = myj
  end if
  !$omp end critical (closest)
  !$omp end parallel
  print *, epot, rmax, sqrt(rmin), imin, jmin, hist(1:5), f(:, 1)
end program pair_stats
