import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libgit2's smart protocol carried over a program's standard input and output, the way git
/// reaches ssh remotes (`ssh HOST git-upload-pack PATH`) and paths on this machine (`git
/// upload-pack PATH`): so the user's ssh setup applies, and a local remote's hooks run and
/// its refs are updated only from the value they had (both are the programs git runs).
///
/// A `git_smart_subtransport` (libgit2's `git2/sys/transport.h`): one program per service,
/// its stream reading and writing the program's pipes.
final class ProcessTransport {
    private let endpoint: RemoteEndpoint
    private let ssh: SSHSettings
    private let context: RemoteContext
    private var child: ChildProcess?
    private var stream: UnsafeMutablePointer<git_smart_subtransport_stream>?

    private init(endpoint: RemoteEndpoint, ssh: SSHSettings, context: RemoteContext) {
        self.endpoint = endpoint
        self.ssh = ssh
        self.context = context
    }

    /// Creates the smart transport for `owner` (libgit2's `git_transport_cb`).
    static func make(
        _ out: UnsafeMutablePointer<UnsafeMutablePointer<git_transport>?>, owner: OpaquePointer?,
        endpoint: RemoteEndpoint, ssh: SSHSettings, context: RemoteContext
    ) -> Int32 {
        let transport = ProcessTransport(endpoint: endpoint, ssh: ssh, context: context)
        var definition = git_smart_subtransport_definition(
            callback: { out, _, param in
                guard let out, let param else { return -1 }
                let subtransport = UnsafeMutablePointer<todosync_subtransport>.allocate(capacity: 1)
                subtransport.initialize(
                    to: todosync_subtransport(
                        parent: git_smart_subtransport(
                            action: ProcessTransport.action, close: ProcessTransport.close, free: ProcessTransport.free),
                        owner: param))
                out.pointee = UnsafeMutableRawPointer(subtransport).assumingMemoryBound(to: git_smart_subtransport.self)
                return 0
            },
            rpc: 0,
            // Released by the subtransport's `free`.
            param: Unmanaged.passRetained(transport).toOpaque())
        return git_transport_smart(out, owner, &definition)
    }

    private static func owner(_ subtransport: UnsafeMutablePointer<git_smart_subtransport>?) -> ProcessTransport? {
        guard let subtransport else { return nil }
        let wrapper = UnsafeMutableRawPointer(subtransport).assumingMemoryBound(to: todosync_subtransport.self)
        return wrapper.pointee.owner.map { Unmanaged<ProcessTransport>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func owner(_ stream: UnsafeMutablePointer<git_smart_subtransport_stream>?) -> ProcessTransport? {
        owner(stream?.pointee.subtransport)
    }

    private static let action:
        @convention(c) (
            UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport_stream>?>?,
            UnsafeMutablePointer<git_smart_subtransport>?,
            UnsafePointer<CChar>?, git_smart_service_t
        ) -> Int32 = { out, subtransport, _, service in
            guard let out, let transport = owner(subtransport), let subtransport else { return -1 }
            return transport.start(service, out: out, subtransport: subtransport)
        }

    private static let close: @convention(c) (UnsafeMutablePointer<git_smart_subtransport>?) -> Int32 = {
        subtransport in
        owner(subtransport)?.finish()
        return 0
    }

    private static let free: @convention(c) (UnsafeMutablePointer<git_smart_subtransport>?) -> Void = { subtransport in
        guard let subtransport else { return }
        let wrapper = UnsafeMutableRawPointer(subtransport).assumingMemoryBound(to: todosync_subtransport.self)
        if let owner = wrapper.pointee.owner {
            let transport = Unmanaged<ProcessTransport>.fromOpaque(owner)
            transport.takeUnretainedValue().finish()
            transport.release()
        }
        wrapper.deallocate()
    }

    /// Starts the program for a listing (`…_LS`); the service itself goes on in the same one.
    private func start(
        _ service: git_smart_service_t, out: UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport_stream>?>,
        subtransport: UnsafeMutablePointer<git_smart_subtransport>
    ) -> Int32 {
        let name: RemoteEndpoint.Service
        switch service {
        case GIT_SERVICE_UPLOADPACK_LS: name = .uploadPack
        case GIT_SERVICE_RECEIVEPACK_LS: name = .receivePack
        default:
            guard let stream else { return fail("the remote program was not started") }
            out.pointee = stream
            return 0
        }
        finish()
        do throws(GitError) {
            child = try ChildProcess(try endpoint.command(for: name, ssh: ssh))
            child?.silenceLimit = context.silence?.seconds
        } catch {
            return fail(error.message)
        }
        let stream = UnsafeMutablePointer<git_smart_subtransport_stream>.allocate(capacity: 1)
        stream.initialize(
            to: git_smart_subtransport_stream(
                subtransport: subtransport, read: Self.read, write: Self.write, free: Self.freeStream))
        self.stream = stream
        out.pointee = stream
        return 0
    }

    private static let read:
        @convention(c) (
            UnsafeMutablePointer<git_smart_subtransport_stream>?, UnsafeMutablePointer<CChar>?, Int,
            UnsafeMutablePointer<Int>?
        ) -> Int32 = { stream, buffer, size, count in
            guard let transport = owner(stream), let child = transport.child, let buffer, let count else { return -1 }
            do throws(GitError) {
                count.pointee = try child.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size))
                return 0
            } catch {
                if error.isRemoteSilent { transport.context.remoteWasSilent = true }
                return transport.fail(error.message)
            }
        }

    private static let write:
        @convention(c) (UnsafeMutablePointer<git_smart_subtransport_stream>?, UnsafePointer<CChar>?, Int) -> Int32 = {
            stream, buffer, size in
            guard let transport = owner(stream), let child = transport.child, let buffer else { return -1 }
            do throws(GitError) {
                try child.write(UnsafeRawBufferPointer(start: buffer, count: size))
                return 0
            } catch {
                if error.isRemoteSilent { transport.context.remoteWasSilent = true }
                return transport.fail(error.message)
            }
        }

    private static let freeStream: @convention(c) (UnsafeMutablePointer<git_smart_subtransport_stream>?) -> Void = {
        stream in
        guard let stream else { return }
        if let transport = owner(stream), transport.stream == stream { transport.stream = nil }
        stream.deallocate()
    }

    /// Ends the program (libgit2 is done with it, or starts another).
    private func finish() {
        child?.finish()
        child = nil
    }

    /// Records why, for the error the fetch or push throws; libgit2 gets -1.
    private func fail(_ message: String) -> Int32 {
        context.failure = message
        git_error_set_str(Int32(GIT_ERROR_NET.rawValue), message)
        return -1
    }
}
