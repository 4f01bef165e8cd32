C     Arrays aligned with one decomposition: an element-wise loop needs no
C     communication and gets no capability diagnostic.
      PROGRAM ALIGNED
      PARAMETER (N = 1000)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A, B WITH D
      DISTRIBUTE D(:, BLOCK)
C@estimate(current "D(:,BLOCK)")
C@estimate(report "^Loop at line \d+ on 16 processors, D\(:,BLOCK\): .* \(communication 0 ns, ")
C@noaction("^Insert")
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J) * 2.0
   10 CONTINUE
      END
