C     Forward substitution phase of ERLEBACHER's tridiagonal solve in
C     Fortran D (seed 000, Figure 2a). F is distributed by blocks of Z
C     planes, so the K loop carries a dependence across processors and
C     the compiler pipelines it, by default in blocks of 8 I-iterations.
C     Markers: the pipeline's block size (seed 000, equations 1 and 2),
C     the pipelined message of F, the costs.
      SUBROUTINE TRIDVPK(A, B, C, D, E, TOT)
      REAL A(64), B(64), C(64), D(64), E(64), TOT(64,64)
      COMMON /DVARS/ F(64,64,64)
      PARAMETER (NPROC = 8)
      DECOMPOSITION DZ(64,64,64)
      ALIGN F WITH DZ
      DISTRIBUTE DZ(:,:,BLOCK)
C     forward substitution
C@estimate(current "DZ(:,:,BLOCK)")
C@estimate(report "open-shift of F: .*pipeline: F\(I,J,K-1\) reads 1 from the neighbour along dimension 3, and the loop over K carries a dependence across processors")
C@action("^Distribute DZ\(:,BLOCK,:\): .*, -\d+%$", detail="-\d+% vs DZ\(:,:,BLOCK\)", golden="tridvpk-jblock")
C@hint("^5.84 M$", tooltip="\b5840897\b")
C     At B = 8 each of the 16 processors sends 512 messages of 32 bytes
C     for 7.45 us of work: the pipeline's time (170 us by equation 1)
C     is its messages, so the loop is fine-grained as well.
C@diag(fine-grain-loop)
      DO 20 K = 2, 64-1
C@diag(pipeline-granularity, "pipelines this loop nest across the distributed dimension of F in blocks of B = 8.* at B_opt = \d+", information)
C@hint("^94.2 k$", tooltip="\b94208\b")
         DO 20 J = 1, 64
C@hint("^1472$")
            DO 20 I = 1, 64
               F(I,J,K) = (F(I,J,K) - A(K)*F(I,J,K-1))*B(K)
   20 CONTINUE
      END
