! Statistics of a 1000 x 500 field in plain Fortran 90: column sums of
! squares in a loop, the mean and a masked variance, column sums with
! DIM=, a strided COUNT, an outlier test in an IF, a normalisation by
! the largest entry, a FORALL of column sums and a DOT_PRODUCT of two
! columns: reductions over array expressions as users write them.
!
! Expert's view, in the all-one table (an element of A costs 2: a load
! and the index of its second dimension; J costs 1 where it is read):
! every reduction works on every element of its argument and does one
! operation on each; a reduction inside an array statement is done once,
! not once per element.
! - s = s + sum(a(:,j)**2): 3 + 1000 × (1 + 2 + 1 + 1) = 5003 for each
!   j, 500 × 5003 = 2,501,500 for the loop.
! - mean = sum(a) / (n*m): 500,000 × (2 + 1), and N*M, the division
!   and MEAN: 1,500,003.
! - var = sum((a - mean)**2, mask=a > 0.0) / (n*m - 1): 500,000 ×
!   (2 + 1 + 1 + 1 for A - MEAN squared, 2 + 0 for the mask, 1 the
!   add) + 4 = 4,000,004.
! - colsum = sum(a, dim=1): a vector of 500 (DIM=1 removes the first
!   dimension): 500 stores of 1 + 500,000 × 3 = 1,500,500.
! - npos = count(a(1:n:2,:) > mean): 500 × 500 elements × (2 + 1 + 0
!   + 1) + 1 = 1,000,001.
! - the IF: ANY over 500,000 × (2 + 1 + 1 for A - MEAN, 0 ABS, 3 for
!   3.0*SQRT(VAR), 0 the compare, 1 the .OR.) = 4,000,000; the PRINT
!   costs nothing.
! - a = a / maxval(abs(a)): 500,000 × (2 + 2 + 1) for the division and
!   500,000 × (2 + 0 + 1) once for MAXVAL = 4,000,000.
! - the FORALL: 500 × (2 + 1000 × (1 + 2 + 1)) = 2,001,000.
! - the PRINT: dot_product(a(:,1), a(:,2)) 1000 × (2 + 2 + 1 + 1) and
!   three scalars: 6003.
program stats
  implicit none
  integer, parameter :: n = 1000, m = 500
  real :: a(n,m), colsum(m), mean, var, s
  integer :: j, npos

  call random_number(a)
  s = 0.0
  !@hint("^work 2.5 M · span 4000$", tooltip="work 2501500\b")
  do j = 1, m
    s = s + sum(a(:,j)**2)
  end do
  !@hover("^\*\*Work\*\* \(STAT\): `1500003`")
  mean = sum(a) / (n*m)
  !@hover("^\*\*Work\*\* \(STAT\): `4000004`")
  var = sum((a - mean)**2, mask=a > 0.0) / (n*m - 1)
  !@hover("^\*\*Work\*\* \(STAT\): `1500500`")
  colsum = sum(a, dim=1)
  !@hover("^\*\*Work\*\* \(STAT\): `1000001`")
  npos = count(a(1:n:2,:) > mean)
  !@hover("^\*\*Work\*\* \(IF\): `4000000`")
  if (any(abs(a - mean) > 3.0*sqrt(var))) print *, 'outlier'
  !@hover("^\*\*Work\*\* \(STAT\): `4000000`")
  a = a / maxval(abs(a))
  !@hint("^work 2 M · span ", tooltip="work 2001000\b")
  forall (j = 1:m) colsum(j) = sum(a(:,j))
  where (colsum < 0.0) colsum = 0.0
  where (a > mean)
    a = a - mean
  elsewhere
    a = 0.0
  end where
  forall (j = 1:m, colsum(j) > 0.0)
    colsum(j) = colsum(j) / sum(a(:,j))
  end forall
  do concurrent (j = 1:m)
    colsum(j) = colsum(j) / real(n)
  end do
  !@hover("^\*\*Work\*\* \(STAT\): `6003`")
  print *, dot_product(a(:,1), a(:,2)), mean, var, npos
end program stats
