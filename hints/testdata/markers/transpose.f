C     A transpose: every processor sends to every other (all-to-all), no
C     broadcast; the communication outweighs the copy.
      PROGRAM Z
      PARAMETER (N = 256)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A, B WITH D
      DISTRIBUTE D(:,BLOCK)
C@estimate(report "alltoall of B: .*\(B\(J,I\) does not follow the owner of A\(I,J\)\)")
C@estimate(noreport "broadcast")
C@estimate(noreport "^Loop[^\n]*\(communication 0 ns")
C@estimate(noreport "alltoall[\s\S]*alltoall")
C@diag(fine-grain-loop, "less than the communication it needs")
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I,J) = B(J,I)
   10 CONTINUE
      END
