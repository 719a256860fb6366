#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A second thread for the page-table work of mapped input (`MappedBytes`): it pages in the window the
/// parser reads next while the parser reads the current one, so those page faults run beside the parse
/// instead of inside it.
///
/// Only for formats whose parser reads every byte (Ogg: the CRC-32 of every page): where a parser skips
/// payloads (PCM, FLAC's header chain, MP3 and ADTS headers) paging in every byte would be wasted work
/// and resident memory. The caller unmaps windows itself, once parsed (unmapping here let windows pile
/// up, mapped and resident, whenever this thread fell behind). `populate(_:)` only asks the kernel
/// (`madvise`, which fails harmlessly on an address range that is no longer mapped), so the two
/// threads never race on memory.
final class MappedWindowWorker {
    private enum Job {
        case populate(UnsafeMutableRawPointer, Int)
    }

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Jobs in order (guarded by `lock`).
    private var jobs: [Job] = []
    private var head = 0
    private var stopping = false
    private var thread: pthread_t?

    /// Starts the thread; `nil` when it cannot be started (the caller then does the work itself).
    init?() {
        pthread_mutex_init(lock, nil)
        pthread_cond_init(wake, nil)
        var t = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &t, nil,
            { raw in
                guard let raw else { return nil }
                let worker = Unmanaged<MappedWindowWorker>.fromOpaque(raw).takeRetainedValue()
                worker.run()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<MappedWindowWorker>.fromOpaque(context).release()
            return nil
        }
        thread = t
    }

    deinit {
        pthread_mutex_destroy(lock)
        pthread_cond_destroy(wake)
        lock.deallocate()
        wake.deallocate()
    }

    /// Has the window's pages mapped in (`MADV_POPULATE_READ`, Linux 5.14+; elsewhere a no-op).
    func populate(_ window: MappedBytes) {
        guard let region = window.region else { return }
        submit(.populate(region.start, region.count))
    }

    /// Finishes the queued jobs and ends the thread.
    func stop() {
        pthread_mutex_lock(lock)
        stopping = true
        pthread_cond_signal(wake)
        pthread_mutex_unlock(lock)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func submit(_ job: Job) {
        pthread_mutex_lock(lock)
        jobs.append(job)
        pthread_cond_signal(wake)
        pthread_mutex_unlock(lock)
    }

    private func run() {
        while true {
            pthread_mutex_lock(lock)
            while head == jobs.count && !stopping { pthread_cond_wait(wake, lock) }
            if head == jobs.count {
                pthread_mutex_unlock(lock)
                return
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            pthread_mutex_unlock(lock)
            switch job {
            case .populate(let start, let count):
                #if os(Linux)
                _ = madvise(start, count, 22)  // MADV_POPULATE_READ
                #endif
            }
        }
    }
}
