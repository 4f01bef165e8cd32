C     Fortran D: A is aligned with D, dummies written; B and C share one
C     ALIGN with E. The fix copies A's alignment for B and leaves C with E.
      PROGRAM FDLIST
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN A(I,J) WITH D(I,J)
      ALIGN B, C WITH E
      DISTRIBUTE D(BLOCK,:)
      DISTRIBUTE E(:,BLOCK)
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J) * 2.0
   10 CONTINUE
      PRINT *, B(1,1), C(1,1)
      END
