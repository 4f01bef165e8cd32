C     X(K) and X(K-1) lie on two processors (K = 253 starts the fifth block
C     of 63) and each iteration needs the value the other one just wrote:
C     a message of one element per iteration (iSR rather than vSR, seed 001).
      PROGRAM RELAX
      PARAMETER (N = 1000, M = 100, K = 253)
      REAL X(N), Y(M)
      DECOMPOSITION D(N)
      ALIGN X WITH D
      DISTRIBUTE D(BLOCK)
C@diag(fine-grain-loop)
      DO 10 I = 1, M
C@diag(unvectorized-message, "^X\(K-1\) reads 1 from the neighbour along dimension 1: dependences keep this message inside the innermost loop, so 100 messages of one element each are sent", warning)
         X(K) = X(K-1) + Y(I)
C@diag(unvectorized-message, "^X\(K\) reads 1 .* 100 messages of one element each", warning)
         X(K-1) = 0.5 * X(K)
   10 CONTINUE
      END
