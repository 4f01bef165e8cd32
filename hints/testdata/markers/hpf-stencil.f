C     A five-point stencil in HPF with a processor arrangement. The
C     candidate distributions rewrite the !HPF$ DISTRIBUTE directive and
C     keep ONTO P where the new distribution still has two distributed
C     dimensions.
      PROGRAM H
      PARAMETER (N = 256)
      REAL X(N,N), Y(N,N)
!HPF$ PROCESSORS P(4,4)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN X(I,J) WITH T(I,J)
!HPF$ ALIGN Y(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO P
C@diag(loop-distribution, "wait for 4 shift\(s\)", information)
C@estimate(current "T(BLOCK,BLOCK)")
C@estimate(report "open-shift-strided of Y: 1 × 256 bytes, .*\(Y\(I-1,J\) reads 1 from the neighbour along dimension 1\)")
C@estimate(report "open-shift of Y: 1 × 256 bytes, .*\(Y\(I,J\+1\) reads 1 from the neighbour along dimension 2\)")
C@action("^Distribute T\(CYCLIC,CYCLIC\): ", golden="hpf-stencil-cyclic")
C@action("^Distribute T\(:,BLOCK\): ", golden="hpf-stencil-colblock")
C@hint("^1.74 M$", tooltip="\b1742187\b")
      DO 10 J = 2, N - 1
         DO 10 I = 2, N - 1
            X(I,J) = Y(I-1,J) + Y(I+1,J) + Y(I,J-1) + Y(I,J+1)
   10 CONTINUE
      END
