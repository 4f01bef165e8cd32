C     LU factorization with partial pivoting (the DGEFA algorithm), plain
C     FORTRAN 77 with the order N a dummy argument.
C
C     Expert's view: the update loop DO 30 runs N-K times for each
C     column J > K; its statement A(I,J) = A(I,J) + T*A(I,K) costs 15
C     (two 2-D elements read and one written at 4 each, T, one add, one
C     multiply; 4+4+1+4+2 = 15), its bounds K+1 (2) and N (1), so the
C     loop costs 15·(N-K) + 3 for K < N (and 3 when the range is empty,
C     K ≥ N: the trip count max(0, N-K), DESIGN §5). The pivot search
C     DO 10 compares two ABS of 2-D elements (ABS costs only its
C     argument) and assigns L with probability ½ (seed 004's rule for
C     IF). No data layout, no diagnostics.
C@allhints
C@hint("^5/2·N³ \+ ", tooltip="^Cost of subroutine GEFA")
      SUBROUTINE GEFA(A, LDA, N, IPVT)
      INTEGER LDA, N, IPVT(N), I, J, K, L
      DOUBLE PRECISION A(LDA,N), T
C@hint("N")
      DO 60 K = 1, N-1
         L = K
C@hint("N")
         DO 10 I = K+1, N
            IF (ABS(A(I,K)) .GT. ABS(A(L,K))) L = I
   10    CONTINUE
         IPVT(K) = L
         IF (A(L,K) .EQ. 0.0D0) GO TO 60
         T = A(L,K)
         A(L,K) = A(K,K)
         A(K,K) = T
C@hint("N")
         DO 20 I = K+1, N
            A(I,K) = -A(I,K)/A(K,K)
   20    CONTINUE
C@hint("N")
         DO 40 J = K+1, N
            T = A(L,J)
            A(L,J) = A(K,J)
            A(K,J) = T
C@hint("^-15·K \+ 15·N \+ 3 for N ≥ K \+ 1$")
            DO 30 I = K+1, N
               A(I,J) = A(I,J) + T*A(I,K)
   30       CONTINUE
   40    CONTINUE
   60 CONTINUE
      IPVT(N) = N
      END
