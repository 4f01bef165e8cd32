C     Matrix multiply C = A*B, plain FORTRAN 77, N a dummy argument.
C
C     Expert's view (PIPS all-one cost, seed 004): the inner statement
C     C(I,J) = C(I,J) + A(I,K)*B(K,J) costs 18 (four 2-D array
C     elements at 4 each: two subscripts, the access and the 2-D
C     address; one add, one multiply). A DO costs its bounds (N: 1) plus
C     its body summed over the trip count; C(I,J) = 0.0 costs 4. So the
C     K loop is 18·N + 1, the J body 18·N + 5, the J loop
C     18·N² + 5·N + 1 and the routine 18·N³ + 5·N² + N + 1. No data
C     layout, no diagnostics.
C@allhints
C@hint("^18·N³ \+ 5·N² \+ N \+ 1 for N ≥ 1$", tooltip="^Cost of subroutine MATMUL")
      SUBROUTINE MATMUL(A, B, C, N)
      INTEGER N, I, J, K
      REAL A(N,N), B(N,N), C(N,N)
C@hint("^18·N³ \+ 5·N² \+ N \+ 1 for N ≥ 1$")
      DO 30 I = 1, N
C@hint("^18·N² \+ 5·N \+ 1 for N ≥ 1$")
         DO 20 J = 1, N
            C(I,J) = 0.0
C@hint("^18·N \+ 1 for N ≥ 1$")
            DO 10 K = 1, N
               C(I,J) = C(I,J) + A(I,K)*B(K,J)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
