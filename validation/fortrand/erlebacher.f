C     Forward substitution phase of ERLEBACHER's tridiagonal solve in
C     Fortran D (seed 000, Figure 2a), after examples/tridvpk.f. F is
C     distributed by blocks of Z planes, so the K loop carries a
C     dependence across processors and the compiler pipelines it.
C     Validation kit: N and NCYCLE are PARAMETERs that pfls validate
C     sets (--set N=..,NCYCLE=..); the sweep is repeated NCYCLE times.
C     The timed loop is DO 100 (line 15); kernels/erlebacher.f90 runs it.
      PROGRAM ERLE
      PARAMETER (N = 64, NCYCLE = 1)
      REAL A(N), B(N), F(N,N,N)
      DECOMPOSITION DZ(N,N,N)
      ALIGN F WITH DZ
      DISTRIBUTE DZ(:,:,BLOCK)
C     forward substitution
      DO 100 KC = 1, NCYCLE
         DO 20 K = 2, N-1
            DO 20 J = 1, N
               DO 20 I = 1, N
                  F(I,J,K) = (F(I,J,K) - A(K)*F(I,J,K-1))*B(K)
   20    CONTINUE
  100 CONTINUE
      END
