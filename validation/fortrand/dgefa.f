C     Gaussian elimination with partial pivoting (LINPACK DGEFA) in
C     Fortran D, columns distributed (Adve et al., Fig. 4a; after
C     examples/dgefa.f). Validation kit: N and NCYCLE are PARAMETERs
C     that pfls validate sets; the matrix is diagonally dominant, so
C     LINPACK's test for a zero pivot is left out. The timed loop is
C     DO 60 (line 16); kernels/dgefa.f90 runs it.
      PROGRAM DGEFA
      PARAMETER (N = 256, NCYCLE = 1)
      DOUBLE PRECISION A(N,N), T
      INTEGER IPVT(N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 60 K = 1, N-1
C        find the pivot row L of column K
         L = K
         DO 10 I = K+1, N
            IF (ABS(A(I,K)) .GT. ABS(A(L,K))) L = I
   10    CONTINUE
         IPVT(K) = L
         T = A(L,K)
         A(L,K) = A(K,K)
         A(K,K) = T
C        row reduction factors of column K
         DO 20 I = K+1, N
            A(I,K) = -A(I,K) / A(K,K)
   20    CONTINUE
C        reduce every column to the right with the factors of K
         DO 40 J = K+1, N
            T = A(L,J)
            A(L,J) = A(K,J)
            A(K,J) = T
            DO 30 I = K+1, N
               A(I,J) = A(I,J) + T*A(I,K)
   30       CONTINUE
   40    CONTINUE
   60 CONTINUE
      END
