C     A recurrence along the local dimension: no message, no diagnostic;
C     distributing the rows instead would make it a pipeline.
      PROGRAM LOCAL
      PARAMETER (N = 1000)
      REAL A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:, BLOCK)
C@estimate(current "D(:,BLOCK)")
C@estimate(report "communication 0 ns")
C@estimate(noreport "shift")
C@action("^Distribute D\(BLOCK,:\): .*, \+\d+%$", detail="\+\d+% vs D\(:,BLOCK\)", preferred=false)
      DO 10 J = 1, N
         DO 10 I = 2, N
            A(I,J) = A(I-1,J) + 1.0
   10 CONTINUE
      END
