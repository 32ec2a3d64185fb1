#if canImport(Glibc)
    import Glibc
#endif

/// One blocking job run again and again on a thread of its own, so that a single-threaded loop
/// can start it and collect the result later without waiting: for reads the kernel makes block
/// (an IIO light sensor's sysfs attribute sleeps through the conversion).
///
/// `start()` runs the job unless a run is under way; `result()` takes the latest result, once.
/// The thread ends when the object goes away (after the run under way, if any).
public final class BackgroundJob<Output: Sendable>: JobThread, @unchecked Sendable {
    public enum Execution: Sendable {
        /// On a thread of its own: `start()` returns at once.
        case thread
        /// Within `start()`: for tests, whose clocks are simulated.
        case inline
    }

    private let job: @Sendable () -> Output
    private let execution: Execution
    // Guarded by `mutex`.
    private var mutex = pthread_mutex_t()
    private var wake = pthread_cond_t()
    private var requested = false
    private var running = false
    private var finished: Output?
    private var stopping = false
    private var thread: pthread_t?

    public init(_ execution: Execution = .thread, job: @escaping @Sendable () -> Output) {
        self.job = job
        self.execution = execution
        super.init()
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&wake, nil)
    }

    deinit {
        if let thread {
            locked {
                stopping = true
                pthread_cond_signal(&wake)
            }
            pthread_join(thread, nil)
        }
        pthread_cond_destroy(&wake)
        pthread_mutex_destroy(&mutex)
    }

    /// True while a run has been asked for and its result not yet taken.
    public var isBusy: Bool { locked { requested || running || finished != nil } }

    /// Starts a run unless one is under way or its result waits to be taken.
    public func start() {
        if execution == .inline {
            locked {
                if finished == nil { finished = job() }
            }
            return
        }
        locked {
            guard !requested, !running, finished == nil else { return }
            requested = true
            pthread_cond_signal(&wake)
        }
        if thread == nil, !launch() {
            // No thread to be had: run here rather than never.
            let output = job()
            pthread_mutex_lock(&mutex)
            requested = false
            finished = output
            pthread_mutex_unlock(&mutex)
        }
    }

    /// The finished run's output, once; nil while it runs or when none was started.
    public func result() -> Output? {
        locked {
            defer { finished = nil }
            return finished
        }
    }

    /// Starts the thread; false when the system gives none.
    private func launch() -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // The job reads a few small files: far less than the default 8 MiB of stack.
        pthread_attr_setstacksize(&attributes, 256 * 1024)
        var created = pthread_t()
        let context = Unmanaged<JobThread>.passUnretained(self).toOpaque()
        let status = pthread_create(&created, &attributes, runJobThread, context)
        guard status == 0 else { return false }
        thread = created
        return true
    }

    override func serve() {
        while true {
            let go: Bool = locked {
                while !requested && !stopping { pthread_cond_wait(&wake, &mutex) }
                guard !stopping else { return false }
                requested = false
                running = true
                return true
            }
            guard go else { return }
            let output = job()
            locked {
                running = false
                finished = output
            }
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

/// What the thread's entry point knows of a job: a C function cannot be generic. A class, so that
/// the entry point gets it back from its context pointer without a cast.
public class JobThread: @unchecked Sendable {
    func serve() {}
}

private func runJobThread(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<JobThread>.fromOpaque(context!).takeUnretainedValue().serve()
    return nil
}
