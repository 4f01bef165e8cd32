package hints

// mpiTable lists the MPI routines and constants most Fortran programs use,
// in the format of intrinsicTable (class F function, S subroutine, K named
// constant whose result field is its type). A type in braces is a handle:
// INTEGER under `use mpi` and mpif.h, TYPE(MPI_x) under `use mpi_f08`
// (libraryType). IERROR, last in the routines of `use mpi`, is optional
// under mpi_f08. Descriptions are written here from MPI 3.1.
const mpiTable = `
MPI_INIT|S|IERROR integer, out|none (subroutine)|Starts MPI; every process calls it once before any other MPI routine.
MPI_INIT_THREAD|S|REQUIRED integer; PROVIDED integer, out; IERROR integer, out|none (subroutine)|Starts MPI asking for a level of thread support (MPI_THREAD_*); PROVIDED is the level granted.
MPI_INITIALIZED|S|FLAG logical, out; IERROR integer, out|none (subroutine)|Whether MPI_INIT has been called.
MPI_FINALIZE|S|IERROR integer, out|none (subroutine)|Ends MPI; no MPI call may follow.
MPI_ABORT|S|COMM {Comm}; ERRORCODE integer; IERROR integer, out|none (subroutine)|Stops every process of the communicator's group, returning ERRORCODE to the environment.
MPI_COMM_SIZE|S|COMM {Comm}; SIZE integer, out; IERROR integer, out|none (subroutine)|The number of processes in the communicator.
MPI_COMM_RANK|S|COMM {Comm}; RANK integer, out; IERROR integer, out|none (subroutine)|The rank of the calling process in the communicator, from 0.
MPI_COMM_SPLIT|S|COMM {Comm}; COLOR integer; KEY integer; NEWCOMM {Comm}, out; IERROR integer, out|none (subroutine)|Splits a communicator into one per COLOR, ranks ordered by KEY.
MPI_COMM_DUP|S|COMM {Comm}; NEWCOMM {Comm}, out; IERROR integer, out|none (subroutine)|A new communicator with the same group and a separate message context.
MPI_COMM_FREE|S|COMM {Comm}, inout; IERROR integer, out|none (subroutine)|Releases a communicator; COMM becomes MPI_COMM_NULL.
MPI_CART_CREATE|S|COMM_OLD {Comm}; NDIMS integer; DIMS integer array; PERIODS logical array; REORDER logical; COMM_CART {Comm}, out; IERROR integer, out|none (subroutine)|A communicator with a Cartesian grid of processes attached.
MPI_CART_COORDS|S|COMM {Comm}; RANK integer; MAXDIMS integer; COORDS integer array, out; IERROR integer, out|none (subroutine)|The grid coordinates of a rank.
MPI_CART_RANK|S|COMM {Comm}; COORDS integer array; RANK integer, out; IERROR integer, out|none (subroutine)|The rank at grid coordinates.
MPI_CART_SHIFT|S|COMM {Comm}; DIRECTION integer; DISP integer; RANK_SOURCE integer, out; RANK_DEST integer, out; IERROR integer, out|none (subroutine)|The neighbours for a shift along one grid dimension (MPI_PROC_NULL past a non-periodic edge).
MPI_DIMS_CREATE|S|NNODES integer; NDIMS integer; DIMS integer array, inout; IERROR integer, out|none (subroutine)|A balanced grid of NNODES processes in NDIMS dimensions (nonzero entries of DIMS are kept).
MPI_SEND|S|BUF buffer of any type; COUNT integer; DATATYPE {Datatype}; DEST integer; TAG integer; COMM {Comm}; IERROR integer, out|none (subroutine)|Sends COUNT elements to rank DEST; returns when BUF may be reused (blocking, standard mode).
MPI_SSEND|S|BUF buffer of any type; COUNT integer; DATATYPE {Datatype}; DEST integer; TAG integer; COMM {Comm}; IERROR integer, out|none (subroutine)|Synchronous send: returns once the matching receive has started.
MPI_RECV|S|BUF buffer of any type, out; COUNT integer; DATATYPE {Datatype}; SOURCE integer; TAG integer; COMM {Comm}; STATUS {Status}, out; IERROR integer, out|none (subroutine)|Receives at most COUNT elements from SOURCE (or MPI_ANY_SOURCE) with TAG (or MPI_ANY_TAG); blocks until they arrive.
MPI_ISEND|S|BUF buffer of any type; COUNT integer; DATATYPE {Datatype}; DEST integer; TAG integer; COMM {Comm}; REQUEST {Request}, out; IERROR integer, out|none (subroutine)|Starts a send and returns at once; BUF must stay untouched until the request completes.
MPI_IRECV|S|BUF buffer of any type, out; COUNT integer; DATATYPE {Datatype}; SOURCE integer; TAG integer; COMM {Comm}; REQUEST {Request}, out; IERROR integer, out|none (subroutine)|Starts a receive and returns at once; BUF holds the data once the request completes.
MPI_SENDRECV|S|SENDBUF buffer of any type; SENDCOUNT integer; SENDTYPE {Datatype}; DEST integer; SENDTAG integer; RECVBUF buffer of any type, out; RECVCOUNT integer; RECVTYPE {Datatype}; SOURCE integer; RECVTAG integer; COMM {Comm}; STATUS {Status}, out; IERROR integer, out|none (subroutine)|Sends to DEST and receives from SOURCE in one call, without deadlock in a shift.
MPI_SENDRECV_REPLACE|S|BUF buffer of any type, inout; COUNT integer; DATATYPE {Datatype}; DEST integer; SENDTAG integer; SOURCE integer; RECVTAG integer; COMM {Comm}; STATUS {Status}, out; IERROR integer, out|none (subroutine)|As MPI_SENDRECV with one buffer: the received data replaces the sent.
MPI_WAIT|S|REQUEST {Request}, inout; STATUS {Status}, out; IERROR integer, out|none (subroutine)|Waits until a nonblocking operation completes.
MPI_WAITALL|S|COUNT integer; ARRAY_OF_REQUESTS {Request} array, inout; ARRAY_OF_STATUSES {Status} array, out; IERROR integer, out|none (subroutine)|Waits until every request of the list completes.
MPI_WAITANY|S|COUNT integer; ARRAY_OF_REQUESTS {Request} array, inout; INDEX integer, out; STATUS {Status}, out; IERROR integer, out|none (subroutine)|Waits until one request of the list completes; INDEX says which.
MPI_TEST|S|REQUEST {Request}, inout; FLAG logical, out; STATUS {Status}, out; IERROR integer, out|none (subroutine)|Whether a nonblocking operation has completed, without waiting.
MPI_PROBE|S|SOURCE integer; TAG integer; COMM {Comm}; STATUS {Status}, out; IERROR integer, out|none (subroutine)|Waits for a matching message without receiving it; STATUS describes it.
MPI_IPROBE|S|SOURCE integer; TAG integer; COMM {Comm}; FLAG logical, out; STATUS {Status}, out; IERROR integer, out|none (subroutine)|Whether a matching message is waiting, without receiving it.
MPI_GET_COUNT|S|STATUS {Status}; DATATYPE {Datatype}; COUNT integer, out; IERROR integer, out|none (subroutine)|The number of elements a receive got.
MPI_BARRIER|S|COMM {Comm}; IERROR integer, out|none (subroutine)|Waits until every process of the communicator has called it.
MPI_BCAST|S|BUFFER buffer of any type, inout; COUNT integer; DATATYPE {Datatype}; ROOT integer; COMM {Comm}; IERROR integer, out|none (subroutine)|Copies BUFFER from rank ROOT to every process.
MPI_REDUCE|S|SENDBUF buffer of any type; RECVBUF buffer of any type, out; COUNT integer; DATATYPE {Datatype}; OP {Op}; ROOT integer; COMM {Comm}; IERROR integer, out|none (subroutine)|Combines every process's SENDBUF element by element with OP into RECVBUF on ROOT.
MPI_ALLREDUCE|S|SENDBUF buffer of any type; RECVBUF buffer of any type, out; COUNT integer; DATATYPE {Datatype}; OP {Op}; COMM {Comm}; IERROR integer, out|none (subroutine)|Combines every process's SENDBUF with OP; every process gets the result.
MPI_SCAN|S|SENDBUF buffer of any type; RECVBUF buffer of any type, out; COUNT integer; DATATYPE {Datatype}; OP {Op}; COMM {Comm}; IERROR integer, out|none (subroutine)|Inclusive prefix reduction: rank i gets the combination of ranks 0 to i.
MPI_REDUCE_SCATTER|S|SENDBUF buffer of any type; RECVBUF buffer of any type, out; RECVCOUNTS integer array; DATATYPE {Datatype}; OP {Op}; COMM {Comm}; IERROR integer, out|none (subroutine)|Reduces with OP, then scatters RECVCOUNTS(i) elements of the result to rank i−1.
MPI_GATHER|S|SENDBUF buffer of any type; SENDCOUNT integer; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNT integer; RECVTYPE {Datatype}; ROOT integer; COMM {Comm}; IERROR integer, out|none (subroutine)|Collects SENDCOUNT elements of every process on ROOT, in rank order.
MPI_GATHERV|S|SENDBUF buffer of any type; SENDCOUNT integer; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNTS integer array; DISPLS integer array; RECVTYPE {Datatype}; ROOT integer; COMM {Comm}; IERROR integer, out|none (subroutine)|As MPI_GATHER with a count and a displacement per process.
MPI_SCATTER|S|SENDBUF buffer of any type; SENDCOUNT integer; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNT integer; RECVTYPE {Datatype}; ROOT integer; COMM {Comm}; IERROR integer, out|none (subroutine)|Sends consecutive blocks of SENDBUF on ROOT to the processes in rank order.
MPI_SCATTERV|S|SENDBUF buffer of any type; SENDCOUNTS integer array; DISPLS integer array; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNT integer; RECVTYPE {Datatype}; ROOT integer; COMM {Comm}; IERROR integer, out|none (subroutine)|As MPI_SCATTER with a count and a displacement per process.
MPI_ALLGATHER|S|SENDBUF buffer of any type; SENDCOUNT integer; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNT integer; RECVTYPE {Datatype}; COMM {Comm}; IERROR integer, out|none (subroutine)|Every process collects SENDCOUNT elements of every process, in rank order.
MPI_ALLGATHERV|S|SENDBUF buffer of any type; SENDCOUNT integer; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNTS integer array; DISPLS integer array; RECVTYPE {Datatype}; COMM {Comm}; IERROR integer, out|none (subroutine)|As MPI_ALLGATHER with a count and a displacement per process.
MPI_ALLTOALL|S|SENDBUF buffer of any type; SENDCOUNT integer; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNT integer; RECVTYPE {Datatype}; COMM {Comm}; IERROR integer, out|none (subroutine)|Every process sends a distinct block to every other (a transpose of blocks).
MPI_ALLTOALLV|S|SENDBUF buffer of any type; SENDCOUNTS integer array; SDISPLS integer array; SENDTYPE {Datatype}; RECVBUF buffer of any type, out; RECVCOUNTS integer array; RDISPLS integer array; RECVTYPE {Datatype}; COMM {Comm}; IERROR integer, out|none (subroutine)|As MPI_ALLTOALL with a count and a displacement per pair.
MPI_TYPE_CONTIGUOUS|S|COUNT integer; OLDTYPE {Datatype}; NEWTYPE {Datatype}, out; IERROR integer, out|none (subroutine)|A datatype of COUNT consecutive OLDTYPE elements.
MPI_TYPE_VECTOR|S|COUNT integer; BLOCKLENGTH integer; STRIDE integer; OLDTYPE {Datatype}; NEWTYPE {Datatype}, out; IERROR integer, out|none (subroutine)|A datatype of COUNT blocks of BLOCKLENGTH elements, STRIDE elements apart (a matrix row in Fortran order).
MPI_TYPE_COMMIT|S|DATATYPE {Datatype}, inout; IERROR integer, out|none (subroutine)|Makes a derived datatype usable in communication.
MPI_TYPE_FREE|S|DATATYPE {Datatype}, inout; IERROR integer, out|none (subroutine)|Releases a derived datatype.
MPI_GET_PROCESSOR_NAME|S|NAME character(MPI_MAX_PROCESSOR_NAME), out; RESULTLEN integer, out; IERROR integer, out|none (subroutine)|The name of the node the process runs on.
MPI_ERROR_STRING|S|ERRORCODE integer; STRING character(MPI_MAX_ERROR_STRING), out; RESULTLEN integer, out; IERROR integer, out|none (subroutine)|The text of an MPI error code.
MPI_WTIME|F||double precision|Wall-clock time in seconds since some moment in the past.
MPI_WTICK|F||double precision|The resolution of MPI_WTIME in seconds.
MPI_COMM_WORLD|K||{Comm}|The communicator of every process started together.
MPI_COMM_SELF|K||{Comm}|The communicator of the calling process alone.
MPI_COMM_NULL|K||{Comm}|The null communicator (what MPI_COMM_SPLIT gives for MPI_UNDEFINED, what MPI_COMM_FREE leaves).
MPI_INTEGER|K||{Datatype}|The datatype of a default INTEGER.
MPI_INTEGER8|K||{Datatype}|The datatype of an 8-byte INTEGER.
MPI_REAL|K||{Datatype}|The datatype of a default REAL.
MPI_REAL8|K||{Datatype}|The datatype of an 8-byte REAL.
MPI_DOUBLE_PRECISION|K||{Datatype}|The datatype of a DOUBLE PRECISION.
MPI_COMPLEX|K||{Datatype}|The datatype of a default COMPLEX.
MPI_DOUBLE_COMPLEX|K||{Datatype}|The datatype of a double precision COMPLEX.
MPI_LOGICAL|K||{Datatype}|The datatype of a default LOGICAL.
MPI_CHARACTER|K||{Datatype}|The datatype of a CHARACTER(1).
MPI_BYTE|K||{Datatype}|Uninterpreted bytes.
MPI_2INTEGER|K||{Datatype}|A pair of INTEGERs, for MPI_MAXLOC and MPI_MINLOC.
MPI_2DOUBLE_PRECISION|K||{Datatype}|A pair of DOUBLE PRECISIONs, for MPI_MAXLOC and MPI_MINLOC.
MPI_SUM|K||{Op}|Reduction operation: sum.
MPI_PROD|K||{Op}|Reduction operation: product.
MPI_MAX|K||{Op}|Reduction operation: maximum.
MPI_MIN|K||{Op}|Reduction operation: minimum.
MPI_MAXLOC|K||{Op}|Reduction operation: maximum and the index (rank) holding it, on value–index pairs.
MPI_MINLOC|K||{Op}|Reduction operation: minimum and the index (rank) holding it, on value–index pairs.
MPI_LAND|K||{Op}|Reduction operation: logical AND.
MPI_LOR|K||{Op}|Reduction operation: logical OR.
MPI_BAND|K||{Op}|Reduction operation: bitwise AND.
MPI_BOR|K||{Op}|Reduction operation: bitwise OR.
MPI_ANY_SOURCE|K||integer|A receive's SOURCE that matches a message from any rank.
MPI_ANY_TAG|K||integer|A receive's TAG that matches any tag.
MPI_PROC_NULL|K||integer|A rank that makes sends and receives to it return at once (the edge of a non-periodic grid).
MPI_UNDEFINED|K||integer|The value for a result that has none (a color that joins no communicator).
MPI_SUCCESS|K||integer|The error code of a call that succeeded (0).
MPI_STATUS_SIZE|K||integer|The size of the INTEGER array that holds a status under use mpi and mpif.h.
MPI_SOURCE|K||integer|Index of the source rank in a status array: STATUS(MPI_SOURCE).
MPI_TAG|K||integer|Index of the tag in a status array: STATUS(MPI_TAG).
MPI_ERROR|K||integer|Index of the error code in a status array: STATUS(MPI_ERROR).
MPI_MAX_PROCESSOR_NAME|K||integer|The longest name MPI_GET_PROCESSOR_NAME returns.
MPI_MAX_ERROR_STRING|K||integer|The longest text MPI_ERROR_STRING returns.
MPI_STATUS_IGNORE|K||{Status}|A status argument meaning the status is not wanted.
MPI_STATUSES_IGNORE|K||{Status} array|A status array argument meaning the statuses are not wanted.
MPI_REQUEST_NULL|K||{Request}|The null request (what a completed request becomes).
MPI_IN_PLACE|K||buffer marker|A send buffer meaning the data is already in the receive buffer.
MPI_THREAD_SINGLE|K||integer|Thread support level: one thread only.
MPI_THREAD_FUNNELED|K||integer|Thread support level: only the main thread calls MPI.
MPI_THREAD_SERIALIZED|K||integer|Thread support level: one thread at a time calls MPI.
MPI_THREAD_MULTIPLE|K||integer|Thread support level: any thread calls MPI at any time.
MPI_ERRORS_ARE_FATAL|K||{Errhandler}|Error handler that aborts on an error (the default).
MPI_ERRORS_RETURN|K||{Errhandler}|Error handler that returns the error code in IERROR.
`

// ompTable lists the OpenMP runtime routines and named constants of
// omp_lib (OpenMP 4.5 and 5.0), in the format of mpiTable.
const ompTable = `
omp_set_num_threads|S|num_threads integer|none (subroutine)|Sets the number of threads of the parallel regions that follow.
omp_get_num_threads|F||integer|The number of threads of the current team (1 outside a parallel region).
omp_get_max_threads|F||integer|The number of threads a parallel region without NUM_THREADS would get.
omp_get_thread_num|F||integer|The calling thread's number in its team, from 0 (the master thread).
omp_get_num_procs|F||integer|The number of processors available to the program.
omp_in_parallel|F||logical|Whether the call is inside an active parallel region.
omp_set_dynamic|S|dynamic_threads logical|none (subroutine)|Lets the runtime adjust the number of threads of parallel regions, or not.
omp_get_dynamic|F||logical|Whether the runtime may adjust the number of threads.
omp_set_nested|S|nested logical|none (subroutine)|Enables or disables nested parallelism (deprecated in OpenMP 5.0).
omp_get_nested|F||logical|Whether nested parallelism is enabled (deprecated in OpenMP 5.0).
omp_get_thread_limit|F||integer|The largest number of threads the program may use.
omp_set_schedule|S|kind integer(omp_sched_kind); chunk_size integer|none (subroutine)|Sets the schedule of loops with SCHEDULE(RUNTIME).
omp_get_schedule|S|kind integer(omp_sched_kind), out; chunk_size integer, out|none (subroutine)|The schedule of loops with SCHEDULE(RUNTIME).
omp_set_max_active_levels|S|max_levels integer|none (subroutine)|Sets how many nested parallel regions may be active.
omp_get_max_active_levels|F||integer|How many nested parallel regions may be active.
omp_get_level|F||integer|The number of parallel regions enclosing the call.
omp_get_active_level|F||integer|The number of active parallel regions enclosing the call.
omp_get_ancestor_thread_num|F|level integer|integer|The thread number of the calling thread's ancestor at a nesting level.
omp_get_team_size|F|level integer|integer|The size of the team of the calling thread's ancestor at a nesting level.
omp_in_final|F||logical|Whether the call is inside a final task region.
omp_get_wtime|F||double precision|Wall-clock time in seconds since some moment in the past.
omp_get_wtick|F||double precision|The resolution of omp_get_wtime in seconds.
omp_init_lock|S|svar integer(omp_lock_kind), out|none (subroutine)|Initialises a simple lock, unlocked.
omp_destroy_lock|S|svar integer(omp_lock_kind), inout|none (subroutine)|Uninitialises a simple lock.
omp_set_lock|S|svar integer(omp_lock_kind), inout|none (subroutine)|Waits until the lock is free, then holds it.
omp_unset_lock|S|svar integer(omp_lock_kind), inout|none (subroutine)|Releases a lock.
omp_test_lock|F|svar integer(omp_lock_kind), inout|logical|Takes the lock if it is free, without waiting; whether it did.
omp_get_num_devices|F||integer|The number of target devices.
omp_get_device_num|F||integer|The number of the device the call runs on.
omp_lock_kind|K||integer parameter|The kind of an INTEGER that holds a simple lock.
omp_nest_lock_kind|K||integer parameter|The kind of an INTEGER that holds a nestable lock.
omp_sched_kind|K||integer parameter|The kind of an INTEGER that holds a schedule kind.
omp_sched_static|K||integer(omp_sched_kind) parameter|Schedule kind: static.
omp_sched_dynamic|K||integer(omp_sched_kind) parameter|Schedule kind: dynamic.
omp_sched_guided|K||integer(omp_sched_kind) parameter|Schedule kind: guided.
omp_sched_auto|K||integer(omp_sched_kind) parameter|Schedule kind: chosen by the runtime.
openmp_version|K||integer parameter|The OpenMP version the implementation supports, as yyyymm.
`
