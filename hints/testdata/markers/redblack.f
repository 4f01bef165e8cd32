C     Red-black relaxation of an N x N grid in Fortran D (after the
C     REDBLACK node program of seed 003). Which partitioning is faster,
C     (BLOCK,BLOCK) or (:,BLOCK), depends on N and on the number of
C     processors; each colour sweep needs the neighbours' boundary values.
C     Markers: every colour sweep shifts boundaries to the four
C     neighbours, which Fortran D does not overlap (loop-distribution, seed
C     000); on 16 processors at N = 512 the model of the machine prefers
C     (:,BLOCK): fewer, longer messages.
      PROGRAM REDBLK
      PARAMETER (N = 512, NCYCLE = 100, NPROC = 16)
      REAL VAL(0:N+1,0:N+1), A, B
      DECOMPOSITION G(0:N+1,0:N+1)
      ALIGN VAL WITH G
      DISTRIBUTE G(BLOCK,BLOCK)
      A = 0.25
      B = 0.0
C@estimate(current "G(BLOCK,BLOCK)")
C@estimate(faster "G(:,BLOCK)")
C@estimate(report "open-shift of VAL: .*VAL\(I,J-1\) reads 1 from the neighbour along dimension 2")
C@estimate(report "open-shift-strided of VAL: .*VAL\(I-1,J\) reads 1 from the neighbour along dimension 1")
C@action("^Distribute G\(:,BLOCK\): .*, [+-]\d+%$", detail="% vs G\(BLOCK,BLOCK\)", golden="redblack-colblock", kind="refactor.rewrite", preferred=true)
C@action("^Distribute G\(CYCLIC,CYCLIC\): .*, \+\d+%$", detail="\+\d+% vs G\(BLOCK,BLOCK\)", preferred=false)
C@action("^Estimate this loop$")
C@hint("^944 M$", tooltip="\b943718400\b")
      DO 100 KC = 1, NCYCLE
C        red points
C@diag(loop-distribution, "block boundaries wait for 4 shift\(s\) from the neighbours.*the Rice Fortran 77D compiler profile does not split the loop", information)
C@hint("^2.36 M$", tooltip="\b2359296\b")
         DO 10 J = 1, N, 2
C@nodiag(loop-distribution)
C@hint("^9216$")
            DO 10 I = 1, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   10    CONTINUE
C@diag(loop-distribution, "block boundaries wait for 4 shift\(s\) from the neighbours.*the Rice Fortran 77D compiler profile does not split the loop", information)
         DO 20 J = 2, N, 2
            DO 20 I = 2, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   20    CONTINUE
C        black points
C@diag(loop-distribution, "block boundaries wait for 4 shift\(s\) from the neighbours.*the Rice Fortran 77D compiler profile does not split the loop", information)
         DO 30 J = 1, N, 2
            DO 30 I = 2, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   30    CONTINUE
C@diag(loop-distribution, "block boundaries wait for 4 shift\(s\) from the neighbours.*the Rice Fortran 77D compiler profile does not split the loop", information)
         DO 40 J = 2, N, 2
            DO 40 I = 1, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   40    CONTINUE
  100 CONTINUE
      END
