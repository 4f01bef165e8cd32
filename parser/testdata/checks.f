C     Meaning checks of shapes, loops and data mappings (parser/check.go).
      PROGRAM SHAPES
      PARAMETER (N = 100, K = 0, M = -4)
      REAL A(N), C(0)
! ERROR "array C has extent 0 in dimension 1 \(bounds 1:0\)"
      REAL E(N:1)
! ERROR "array E has extent 0 in dimension 1 \(bounds 100:1\)"
      REAL F(K:-1)
! ERROR "array F has extent 0 in dimension 1 \(bounds 0:-1\)"
      REAL G(N, M)
! ERROR "array G has extent 0 in dimension 2 \(bounds 1:-4\)"
      REAL OK0(0:0), OK1(N, 2:N)
      DO 10 I = 1, N, K
! ERROR "DO step of I is 0: the step must not be zero"
         A(I) = 0.0
   10 CONTINUE
      DO I = N, 1, M
         A(I) = 1.0
      END DO
      FORALL (I = 1:N:K) A(I) = 2.0
! ERROR "FORALL stride of I is 0"
      END

      SUBROUTINE HPF
      PARAMETER (N = 64, K = 0)
      REAL A(N,N), B(N,N), V(N), W(N), U(N), S(N)
CHPF$ PROCESSORS P(4,4), Q(16), NONE(K)
! ERROR "processor arrangement NONE has extent 0 in dimension 1"
CHPF$ TEMPLATE T(N,N), T0(K, N)
! ERROR "template T0 has extent 0 in dimension 1"
CHPF$ ALIGN A(I,J) WITH T(I,J)
CHPF$ ALIGN B(I) WITH T(I,*)
! ERROR "ALIGN gives 1 align dummy for B, which has rank 2"
CHPF$ ALIGN V(I) WITH T(I)
! ERROR "ALIGN ... WITH T gives 1 subscript for T, which has rank 2"
CHPF$ ALIGN W(I) WITH U(I)
! ERROR "ALIGN cycle: W → U → S → W"
CHPF$ ALIGN U(I) WITH S(I)
CHPF$ ALIGN S(I) WITH W(I)
CHPF$ DISTRIBUTE T(CYCLIC(0), BLOCK) ONTO P
! ERROR "CYCLIC\(0\) in DISTRIBUTE: the block size must be a positive integer"
CHPF$ DISTRIBUTE T0(CYCLIC(-4), BLOCK(K-1))
! ERROR "CYCLIC\(-4\) in DISTRIBUTE"
CHPF$ DISTRIBUTE T(BLOCK, BLOCK, BLOCK) ONTO P
! ERROR "DISTRIBUTE gives 3 formats for T, which has rank 2"
CHPF$ DISTRIBUTE T(BLOCK, BLOCK) ONTO Q
! ERROR "ONTO Q distributes 2 dimensions, but Q has rank 1"
CHPF$ DISTRIBUTE T(BLOCK, *) ONTO Q
      END

      SUBROUTINE FORTD(N)
      INTEGER N
      REAL X(N,N), Y(N,N), Z(N,N), R(N)
      DECOMPOSITION D(N,N), D0(0)
! ERROR "template D0 has extent 0 in dimension 1"
      ALIGN X(I,J), Y(I,J), Z(I,J) WITH D(I,J)
      ALIGN R(I,J) WITH D(I,J)
! ERROR "ALIGN gives 2 align dummies for R, which has rank 1"
      DISTRIBUTE D(:, CYCLIC)
      DISTRIBUTE D(BLOCK)
! ERROR "DISTRIBUTE gives 1 format for D, which has rank 2"
      END

      SUBROUTINE CMF
      REAL T(64,64), TNEW(64,64), Q(8)
CMF$  LAYOUT T(:NEWS,:NEWS), TNEW(:NEWS,:NEWS)
CMF$  LAYOUT Q(:NEWS, :NEWS)
! ERROR "LAYOUT gives 2 dimensions for Q, which has 1"
      END

      SUBROUTINE PARAMS
      PARAMETER (K = J + 1)
! ERROR "PARAMETER K is defined in terms of itself \(K → J → K\)"
      PARAMETER (J = K + 1, L = L * 2, M = 4, N = M + 1)
! ERROR "PARAMETER L is defined in terms of itself \(L → L\)"
      REAL A(N)
      DO 10 I = 1, K
         A(I) = 0.0
   10 CONTINUE
      END
