C     Jacobi relaxation of an N x N grid in Fortran D: the 4-point
C     sweep writes B from the old values of A, then A takes B. Every
C     cycle needs the neighbours' boundary lines of A before the sweep.
C     Validation kit: N and NCYCLE are PARAMETERs that pfls validate
C     sets (--set N=..,NCYCLE=..). The timed loop is DO 100 (line 14);
C     kernels/jacobi.f90 runs it.
      PROGRAM JACOBI
      PARAMETER (N = 256, NCYCLE = 10)
      REAL A(0:N+1,0:N+1), B(0:N+1,0:N+1)
      DECOMPOSITION G(0:N+1,0:N+1)
      ALIGN A WITH G
      ALIGN B WITH G
      DISTRIBUTE G(BLOCK,BLOCK)
      DO 100 KC = 1, NCYCLE
C        4-point sweep
         DO 10 J = 1, N
            DO 10 I = 1, N
               B(I,J) = 0.25*(A(I-1,J) + A(I+1,J)
     &                      + A(I,J-1) + A(I,J+1))
   10    CONTINUE
C        copy back
         DO 20 J = 1, N
            DO 20 I = 1, N
               A(I,J) = B(I,J)
   20    CONTINUE
  100 CONTINUE
      END
