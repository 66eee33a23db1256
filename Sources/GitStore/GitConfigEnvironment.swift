import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The config files outside a repository that git reads, as its environment decides:
/// `GIT_CONFIG_SYSTEM` names the system file and `GIT_CONFIG_NOSYSTEM` drops it;
/// `GIT_CONFIG_GLOBAL` takes the place of both `~/.gitconfig` and the XDG file
/// (`$XDG_CONFIG_HOME/git/config`). libgit2 1.5 knows none of these variables, so where one
/// is set the repository gets a config built by these rules (`Repository.readConfigAsGit`).
struct GitConfigEnvironment {
    var system: String?
    var xdg: String?
    var global: String?

    /// None of the variables is set: libgit2's own choice of files is git's (checked on every
    /// open, so without looking for any file).
    static var isDefault: Bool {
        variable("GIT_CONFIG_NOSYSTEM").map(isTrue) != true && variable("GIT_CONFIG_SYSTEM") == nil
            && variable("GIT_CONFIG_GLOBAL") == nil
    }

    static func current() -> GitConfigEnvironment {
        let noSystem = variable("GIT_CONFIG_NOSYSTEM").map(isTrue) ?? false
        let system = variable("GIT_CONFIG_SYSTEM")
        let global = variable("GIT_CONFIG_GLOBAL")
        return GitConfigEnvironment(
            system: noSystem ? nil : system ?? found(git_config_find_system),
            xdg: global != nil ? nil : found(git_config_find_xdg),
            global: global.map { $0.isEmpty ? nil : $0 } ?? found(git_config_find_global))
    }

    /// The files, in the order git reads them (later ones win).
    var files: [(path: String, level: git_config_level_t)] {
        [(system, GIT_CONFIG_LEVEL_SYSTEM), (xdg, GIT_CONFIG_LEVEL_XDG), (global, GIT_CONFIG_LEVEL_GLOBAL)]
            .compactMap { path, level in path.map { ($0, level) } }
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// git's reading of a boolean variable.
    private static func isTrue(_ text: String) -> Bool {
        !["", "0", "false", "no", "off"].contains(text.lowercased())
    }

    private static func found(_ find: (UnsafeMutablePointer<git_buf>) -> Int32) -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        guard find(&buffer) == 0 else { git_error_clear(); return nil }
        return string(buffer.ptr)
    }
}

extension Repository {
    /// Where git's config variables are set, gives the repository the config git would read:
    /// those files, then the repository's own (`include` and `includeIf` work in each).
    func readConfigAsGit() throws(GitError) {
        guard !GitConfigEnvironment.isDefault else { return }
        let environment = GitConfigEnvironment.current()
        var config: OpaquePointer?
        try GitError.check(git_config_new(&config), "git_config_new")
        defer { git_config_free(config) }
        for file in environment.files + [(commonDirectory + "config", GIT_CONFIG_LEVEL_LOCAL)] {
            try GitError.check(
                git_config_add_file_ondisk(config, file.path, file.level, pointer, 0), "git_config_add_file_ondisk")
        }
        try GitError.check(git_repository_set_config(pointer, config), "git_repository_set_config")
    }

    /// The config files outside the repository that git reads and that exist now.
    public static func outsideConfigFiles() -> [String] {
        Libgit2.ensureInitialized()
        return GitConfigEnvironment.current().files.map(\.path).filter { access($0, F_OK) == 0 }
    }
}
