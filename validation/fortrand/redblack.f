C     Red-black relaxation of an N x N grid in Fortran D (after the
C     REDBLACK node program of seed 003). Which partitioning is faster,
C     (BLOCK,BLOCK) or (:,BLOCK), depends on N and on the number of
C     processors; each colour sweep needs the neighbours' boundary values.
C     Validation kit: the same program as examples/redblack.f; N and
C     NCYCLE are PARAMETERs that pfls validate sets (--set N=..,NCYCLE=..).
C     The timed loop is DO 100 (line 16); kernels/redblack.f90 runs it.
      PROGRAM REDBLK
      PARAMETER (N = 512, NCYCLE = 100, NPROC = 16)
      REAL VAL(0:N+1,0:N+1), A, B
      DECOMPOSITION G(0:N+1,0:N+1)
      ALIGN VAL WITH G
      DISTRIBUTE G(BLOCK,BLOCK)
      A = 0.25
      B = 0.0
      DO 100 KC = 1, NCYCLE
C        red points
         DO 10 J = 1, N, 2
            DO 10 I = 1, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   10    CONTINUE
         DO 20 J = 2, N, 2
            DO 20 I = 2, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   20    CONTINUE
C        black points
         DO 30 J = 1, N, 2
            DO 30 I = 2, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   30    CONTINUE
         DO 40 J = 2, N, 2
            DO 40 I = 1, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   40    CONTINUE
  100 CONTINUE
      END
