#!/usr/bin/env python3
"""A many-clone soak through a real https server (docs/RELIABILITY.md, "Soak").

scripts/soak.sh builds todosync and runs this. It starts nginx (TLS, basic auth) in front of
`git http-backend` serving a bare repository, makes N clones, and in each runs
`todosync watch --sync-every 3s` beside a simulated person; one more clone is a plain git
user who edits, commits, pulls and pushes now and then. After the given minutes it stops the
writers and the watches, syncs every clone until nothing more comes in, and judges.

The judge's rules (each intent is logged with its wall-clock time, clone, item and field):
  1. Converged: every clone's HEAD is the remote's and their working files are byte for byte
     the same; `git status --porcelain` is clean everywhere.
  2. Nothing lost: for each (item, field), the newest intent holds in the final lists:
       - title: the item's title, or a clash note "this item was also renamed to: <title>"
         (MERGE.md: a title set differently on both sides keeps the other in a note);
       - done / open: the box;
       - notes (replaced whole): each of its lines stands among the item's notes (a clash
         block keeps both versions' lines between comments);
       - a note line added in an editor: it stands among the notes, unless a later intent
         replaced the notes;
       - file: the item stands in that file;
       - file (moved there): the item stands in that file, or in the file another clone moved
         it to concurrently (MERGE.md: moved to different files on both sides, the first by
         path wins);
       - exists (added): the item stands somewhere;
       - removed (`rm`, or an add undone): the item is gone, or another clone changed it
         concurrently (MERGE.md: an edit beats a delete);
     an older intent on the same item and field needs nothing: a later one changed it, and a
     later removal of the item changes every field (kept by an edit elsewhere, the item is as
     that edit left it). A prose line added to a
     file stands in that file. An undo withdraws the intents of the command it took back (what
     that changed is back to what it was, or to what another clone set meanwhile); an undone
     add is a removal. Two intents are concurrent when neither clone could have seen the other's:
     from the reflog of each clone's remote-tracking branch (its fetches and pushes), the one
     was not pushed and then fetched by the other clone before the other was made.
  3. Nothing made up: every item's title is one somebody wrote (an add, a rename, the plain
     git user's line).
  4. `git fsck --strict` is clean in every clone and in the server's repository; no lock or
     temporary file of git's or todosync's is left.
  5. Each watch's memory (RSS) at the end is at most 1.5x what it was after the first minute
     (or at the first sample in a shorter run), and no error line repeats in a loop (more
     than 20 times in one watch's output).
Last line: `soak: converged, ...` and exit 0, or `soak: FAILED: ...` and exit 1.
"""

import argparse
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict

LISTS = ["TODO.md", "work.md", "home/chores.md"]
WORDS = ["milk", "report", "call", "tax", "plants", "bike", "email", "draft", "paint", "book",
         "tickets", "dentist", "budget", "review", "slides", "garden", "invoice", "laundry"]


class Soak:
    def __init__(self, todosync, clones, minutes, keep, seed):
        self.todosync = todosync
        self.clone_count = clones
        self.seconds = minutes * 60
        self.keep = keep
        self.random = random.Random(seed)
        self.root = tempfile.mkdtemp(prefix="todosync-soak-")
        self.intents = []  # (time, clone, item, field, value)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.counts = Counter()
        self.made = Counter()  # intents logged by each person
        self.failures = []
        self.processes = []
        self.titles_written = set()
        self.seen = {}  # a title added in an editor or with plain git -> the id todosync gave it

    # -- the server -------------------------------------------------------------------------

    def run(self, args, cwd=None, check=True, env=None, timeout=120):
        result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout)
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
        return result

    def start_server(self):
        r = self.root
        os.makedirs(f"{r}/nginx")
        curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        self.run(["openssl", "req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                  "-subj", "/CN=todosync soak CA"], cwd=r)
        self.run(["openssl", "req", *curve, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"], cwd=r)
        with open(f"{r}/server.ext", "w") as f:
            f.write("subjectAltName=DNS:127.0.0.1,IP:127.0.0.1\n")
        self.run(["openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                  "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext"], cwd=r)
        self.password = "pw-" + secrets.token_hex(4)
        digest = self.run(["openssl", "passwd", "-apr1", self.password]).stdout.strip()
        with open(f"{r}/htpasswd", "w") as f:
            f.write(f"soak:{digest}\n")
        self.bare = f"{r}/repos/lists.git"
        self.run(["git", "init", "-q", "--bare", "-b", "main", self.bare])
        exec_path = self.run(["git", "--exec-path"]).stdout.strip()
        self.daemon("fcgiwrap", ["-s", f"unix:{r}/fcgi.sock"])
        for _ in range(5):
            self.port = self.random.randint(20000, 60000)
            user = "user root root;\n" if os.getuid() == 0 else ""
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "nginx-git-http-backend.conf")) as f:
                config = f.read()
            values = {"@USER@": user, "@ROOT@": r, "@PORT@": str(self.port), "@WORKERS@": "2",
                      "@CONNECTIONS@": "256", "@GIT_EXEC_PATH@": exec_path}
            for key, value in values.items():
                config = config.replace(key, value)
            with open(f"{r}/nginx.conf", "w") as f:
                f.write(config)
            self.daemon("nginx", ["-p", f"{r}/nginx", "-c", f"{r}/nginx.conf"])
            self.url = f"https://127.0.0.1:{self.port}/lists.git"
            for _ in range(50):
                probe = self.run(["git", "-c", f"http.sslCAInfo={r}/ca.pem", "ls-remote",
                                  f"https://soak:{self.password}@127.0.0.1:{self.port}/lists.git"],
                                 check=False, env=self.git_env())
                if probe.returncode == 0:
                    return
                time.sleep(0.1)
            self.stop_daemon("nginx")
        raise RuntimeError("nginx did not start")

    def daemon(self, name, args):
        self.run(["/usr/sbin/start-stop-daemon", "--start", "--background", "--make-pidfile", "--pidfile",
                  f"{self.root}/{name}.pid", "--exec", f"/usr/sbin/{name}", "--", *args])

    def stop_daemon(self, name):
        try:
            with open(f"{self.root}/{name}.pid") as f:
                os.kill(int(f.read().strip()), signal.SIGTERM if name == "nginx" else signal.SIGKILL)
            os.unlink(f"{self.root}/{name}.pid")
        except (OSError, ValueError):
            pass

    def git_env(self, name=None):
        env = {k: v for k, v in os.environ.items()
               if k not in ("GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "SSL_CERT_FILE", "SSL_CERT_DIR")}
        if name:
            env.update(GIT_AUTHOR_NAME=name, GIT_COMMITTER_NAME=name,
                       GIT_AUTHOR_EMAIL=f"{name}@soak.test", GIT_COMMITTER_EMAIL=f"{name}@soak.test")
        return env

    # -- the clones -------------------------------------------------------------------------

    def make_clones(self):
        self.clones = [f"c{n}" for n in range(1, self.clone_count + 1)]
        seed = f"{self.root}/seed"
        os.makedirs(f"{seed}/home")
        files = {
            "TODO.md": "# Today\n\n- [ ] Buy bread\n- [ ] Water the plants 🔁 every day 📅 2026-11-01\n\nSome prose.\n",
            "work.md": "# Work\n\n- [ ] Send the report\n  Notes on the report.\n- [ ] Book the room\n",
            "home/chores.md": "# Chores\n\n- [ ] Take out the bins 🔁 every week 📅 2026-11-02\n- [ ] Fix the bike\n",
        }
        for path, text in files.items():
            with open(f"{seed}/{path}", "w") as f:
                f.write(text)
            for line in text.splitlines():
                if line.startswith("- [ ] "):
                    self.titles_written.add(re.sub(r" [🔁📅].*", "", line[6:]))
        self.run(["git", "init", "-q", "-b", "main"], cwd=seed)
        self.configure(seed, "seed")
        self.run([self.todosync, "init", "--remote", self.url], cwd=seed, env=self.git_env("seed"))
        self.run([self.todosync, "sync"], cwd=seed, env=self.git_env("seed"))
        for name in self.clones + ["plain"]:
            path = f"{self.root}/{name}"
            self.run(["git", "-c", f"http.sslCAInfo={self.root}/ca.pem", "-c",
                      f"credential.helper=store --file={self.root}/credentials", "clone", "-q", self.url, path],
                     env=self.git_env(name))
            self.configure(path, name)
            # The first todosync command sets up the merge driver in a plain clone too.
            self.run([self.todosync, "status"], cwd=path, env=self.git_env(name))

    def configure(self, path, name):
        with open(f"{self.root}/credentials", "w") as f:
            f.write(f"https://soak:{self.password}@127.0.0.1:{self.port}\n")
        for key, value in [("user.name", name), ("user.email", f"{name}@soak.test"),
                           ("http.sslCAInfo", f"{self.root}/ca.pem"),
                           ("credential.helper", f"store --file={self.root}/credentials")]:
            self.run(["git", "config", key, value], cwd=path)

    def start_watches(self):
        self.watches = {}
        for name in self.clones:
            log = open(f"{self.root}/{name}.watch.log", "w")
            process = subprocess.Popen([self.todosync, "watch", "--sync-every", "3s", "--quiet-period", "1s"],
                                       cwd=f"{self.root}/{name}", stdout=log, stderr=subprocess.STDOUT,
                                       env=self.git_env(name))
            self.watches[name] = (process, log)

    def rss(self, pid, kind="VmRSS"):
        """A process's resident memory in MB (VmRSS; RssAnon: its own, without mapped files)."""
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith(kind + ":"):
                        return int(line.split()[1]) / 1024
        except OSError:
            return None

    # -- the people -------------------------------------------------------------------------

    def note(self, clone, item, field, value, at=None):
        with self.lock:
            self.intents.append((at or time.time(), clone, item, field, value))
            self.made[clone] += 1

    def todosync_in(self, clone, *args, check=False):
        started = time.time()
        result = self.run([self.todosync, *args], cwd=f"{self.root}/{clone}", check=False,
                          env=self.git_env(clone))
        if args[0] != "list":
            with open(f"{self.root}/{clone}.person.log", "a") as log:
                log.write(f"{started:.3f}-{time.time():.3f} todosync {' '.join(args)} -> {result.returncode}\n"
                          f"{result.stdout}{result.stderr}")
        if check and result.returncode != 0:
            raise RuntimeError(f"{clone}: todosync {' '.join(args)}: {result.stderr.strip()}")
        return result

    def changed(self, result):
        """Whether an item command made a unit: it succeeded and did not find the lists
        already saying so (a command that changes nothing is no intent)."""
        return result.returncode == 0 and "Nothing to change" not in result.stdout + result.stderr

    def items(self, clone):
        result = self.todosync_in(clone, "list", "--json")
        if result.returncode != 0:
            return []
        items = json.loads(result.stdout)
        with self.lock:
            for item in items:
                if item["id"] and item["title"] not in self.seen:
                    self.seen[item["title"]] = item["id"]
        return items

    def new_title(self, clone, counter):
        title = f"{clone} {self.random.choice(WORDS)} {counter}"
        with self.lock:
            self.titles_written.add(title)
        return title

    def person(self, clone):
        rng = random.Random(f"{clone}-{self.random.random()}")
        counter = 0
        while not self.stop.is_set():
            time.sleep(rng.uniform(0.2, 1.2))
            known = [i for i in self.items(clone) if i["id"]]
            action = rng.choices(
                ["add", "edit-add", "done", "edit-done", "reopen", "rename", "edit-rename", "notes",
                 "edit-note", "move", "move-file", "prose", "rm"],
                [10, 8, 8, 5, 2, 6, 4, 3, 4, 3, 3, 4, 2])[0]
            counter += 1
            made = self.made[clone]
            try:
                self.act(clone, rng, action, known, counter)
            except FileNotFoundError:
                pass
            if self.made[clone] > made:  # an edit: something changed (an intent was logged)
                self.counts["edits"] += 1

    def act(self, clone, rng, action, known, counter):
        path = f"{self.root}/{clone}"
        mark = time.time()
        target = rng.choice(known) if known else None
        short = target["id"][:8] if target else None
        if action == "add" or target is None:
            title = self.new_title(clone, counter)
            file = rng.choice(LISTS)
            extra = ["--recurrence", "every week", "--due", "2026-12-01"] if rng.random() < 0.1 else []
            result = self.todosync_in(clone, "add", title, "--file", file, *extra)
            if self.changed(result):
                at = time.time()
                ids = [i["id"] for i in self.items(clone) if i["title"] == title and i["id"]]
                if ids:
                    for field, value in [("exists", True), ("title", title), ("file", file)]:
                        self.note(clone, ids[0], field, value, at)
                    self.maybe_undo(clone, rng, result, mark, [(ids[0], "exists", False)])
        elif action == "edit-add":
            title = self.new_title(clone, counter)
            if self.edit_file(path, rng.choice(LISTS), lambda lines: lines + [f"- [ ] {title}\n"]):
                self.note(clone, ("title", title), "exists", True)
        elif action == "done":
            result = self.todosync_in(clone, "done", short)
            if self.changed(result):
                self.note(clone, target["id"], "done", True)
                if not target["recurrence"]:
                    self.maybe_undo(clone, rng, result, mark)
        elif action == "reopen":
            if self.changed(self.todosync_in(clone, "reopen", short)):
                self.note(clone, target["id"], "done", False)
        elif action == "edit-done":
            if not target["recurrence"] and self.edit_line(path, target, lambda l: l.replace("- [ ]", "- [x]", 1)):
                self.note(clone, target["id"], "done", True)
        elif action == "rename":
            title = self.new_title(clone, counter)
            result = self.todosync_in(clone, "edit", short, "--title", title)
            if self.changed(result):
                self.note(clone, target["id"], "title", title)
                self.maybe_undo(clone, rng, result, mark)
        elif action == "edit-rename":
            title = self.new_title(clone, counter)
            old = target["title"]
            if old and self.edit_line(path, target, lambda l: l.replace(old, title, 1)):
                self.note(clone, target["id"], "title", title)
        elif action == "notes":
            text = f"note by {clone} {counter}"
            if self.changed(self.todosync_in(clone, "edit", short, "--notes", text)):
                self.note(clone, target["id"], "notes", text)
        elif action == "edit-note":
            line = f"a line from {clone} {counter}"

            def add_note(lines, index):
                indent = re.match(r"\s*", lines[index]).group(0) + "  "
                return lines[:index + 1] + [indent + line + "\n"] + lines[index + 1:]
            if self.edit_file(path, target["file"], add_note, target):
                self.note(clone, target["id"], "note-line", line)
        elif action == "move":
            other = rng.choice(known)
            if other["id"] != target["id"] and other["file"] == target["file"]:
                if self.changed(self.todosync_in(clone, "mv", short, "--after", other["id"][:8])):
                    # Judged as a change (an edit beats a delete) and as a place in that file.
                    self.note(clone, target["id"], "place", target["file"])
        elif action == "move-file":
            file = rng.choice([f for f in LISTS if f != target["file"]])
            if target["parent"] is None and self.changed(self.todosync_in(clone, "mv", short, "--file", file)):
                self.note(clone, target["id"], "file", file)
        elif action == "prose":
            line = f"Prose from {clone} {counter}."
            file = rng.choice(LISTS)
            if self.edit_file(path, file, lambda lines: lines + ["\n", line + "\n"]):
                self.note(clone, file, "prose", line)
        elif action == "rm":
            result = self.todosync_in(clone, "rm", short)
            if self.changed(result):
                self.note(clone, target["id"], "exists", False)
                self.maybe_undo(clone, rng, result, mark)

    def maybe_undo(self, clone, rng, command, mark, then=()):
        """Right after a command that made a unit, `undo` takes it back (the person's newest
        unit): the command's intents are withdrawn (what it changed is back to what it was, or
        to what another clone set meanwhile); an undone add is a removal."""
        if rng.random() < 0.25 and self.todosync_in(clone, "undo").returncode == 0:
            self.counts["undos"] += 1
            # A sync between the command and its undo may have carried the change to other
            # clones (and kept an item another removed): it stays a change, with no value.
            with self.lock:
                self.intents = [i if i[1] != clone or i[0] < mark else (i[0], clone, i[2], "touched", None)
                                for i in self.intents]
            for item, field, value in then:
                self.note(clone, item, field, value)

    def exchanges(self, clone):
        """When the clone fetched from or pushed to the server, and when it pushed (whole
        seconds, from the reflog of its remote-tracking branch, which git and todosync both
        keep: an entry each time the branch moved), oldest first."""
        every, pushes = [], []
        try:
            with open(f"{self.root}/{clone}/.git/logs/refs/remotes/origin/main") as f:
                for line in f:
                    if "\t" not in line:
                        continue
                    stamp = int(line.split("\t")[0].split()[-2])
                    every.append(stamp)
                    if line.split("\t", 1)[1].startswith("update by push"):
                        pushes.append(stamp)
        except OSError:
            pass
        return sorted(every), sorted(pushes)

    def edit_file(self, clone_path, file, change, target=None):
        full = f"{clone_path}/{file}"
        try:
            with open(full) as f:
                lines = f.readlines()
        except FileNotFoundError:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            lines = []
        if target is not None:
            index = self.find_line(lines, target)
            if index is None:
                return False
            new = change(lines, index)
        else:
            new = change(lines)
        if new == lines:
            return False  # nothing changed: no save, no intent
        # An editor's save: a new file renamed over the old one, unless the file changed since
        # it was read (as editors check before they save: a stale buffer saved would drop what
        # a sync wrote meanwhile, which is the person's doing, not todosync's).
        temporary = f"{full}.soak~"
        with open(temporary, "w") as f:
            f.writelines(new)
        try:
            with open(full) as f:
                unchanged = f.readlines() == lines
        except FileNotFoundError:
            unchanged = lines == []
        if not unchanged:
            os.unlink(temporary)
            return False
        os.rename(temporary, full)
        return True

    def find_line(self, lines, target):
        for index, line in enumerate(lines):
            if target["id"] in line:
                return index
        return None

    def edit_line(self, clone_path, target, change):
        def replace(lines, index):
            lines = list(lines)
            lines[index] = change(lines[index])
            return lines
        return self.edit_file(clone_path, target["file"], replace, target)

    def plain_git_user(self):
        path = f"{self.root}/plain"
        counter = 0
        while not self.stop.wait(self.random.uniform(5, 12)):
            counter += 1
            title = self.new_title("plain", counter)
            self.run(["git", "pull", "-q", "--no-rebase", "--no-edit"], cwd=path, check=False, env=self.git_env("plain"))
            with open(f"{path}/TODO.md", "a") as f:
                f.write(f"- [ ] {title}\n")
            self.run(["git", "commit", "-qam", f"Add {title}"], cwd=path, env=self.git_env("plain"))
            at = time.time()
            for _ in range(5):
                if self.run(["git", "push", "-q"], cwd=path, check=False, env=self.git_env("plain")).returncode == 0:
                    break
                self.run(["git", "pull", "-q", "--no-rebase", "--no-edit"], cwd=path, check=False, env=self.git_env("plain"))
            self.note("plain", ("title", title), "exists", True)
            self.counts["plain commits"] += 1

    # -- the end ----------------------------------------------------------------------------

    def quiesce(self):
        self.stop.set()
        for thread in self.threads:
            thread.join()
        self.end_rss = {name: self.rss(process.pid) for name, (process, _) in self.watches.items()}
        for name, (process, log) in self.watches.items():
            process.send_signal(signal.SIGTERM)
        for name, (process, log) in self.watches.items():
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.failures.append(f"{name}'s watch did not stop within 60 s of SIGTERM")
                process.kill()
            log.close()
        plain = f"{self.root}/plain"
        for _ in range(5):
            self.run(["git", "pull", "-q", "--no-rebase", "--no-edit"], cwd=plain, check=False, env=self.git_env("plain"))
            if self.run(["git", "push", "-q"], cwd=plain, check=False, env=self.git_env("plain")).returncode == 0:
                break
        for round in range(10):
            heads = set()
            for name in self.clones:
                result = self.todosync_in(name, "sync")
                self.counts["syncs"] += 1
                if result.returncode != 0:
                    self.failures.append(f"{name}: final sync failed: {result.stderr.strip()}")
            for name in self.clones:
                heads.add(self.run(["git", "rev-parse", "HEAD"], cwd=f"{self.root}/{name}").stdout.strip())
            remote = self.run(["git", "rev-parse", "main"], cwd=self.bare).stdout.strip()
            if heads == {remote}:
                self.run(["git", "pull", "-q", "--no-rebase", "--no-edit"], cwd=plain, check=False, env=self.git_env("plain"))
                if self.run(["git", "rev-parse", "HEAD"], cwd=plain).stdout.strip() != remote:
                    self.failures.append("the plain git user's clone did not come to the remote's commit")
                return
        self.failures.append(f"clones did not converge after 10 rounds of sync: {len(heads)} heads")

    def judge(self):
        with open(f"{self.root}/intents.json", "w") as f:
            json.dump(self.intents, f, indent=0)
        first = self.clones[0]
        files = self.tracked_files(first)
        for name in self.clones[1:]:
            if self.tracked_files(name) != files:
                self.failures.append(f"{name}'s files differ from {first}'s")
        for name in self.clones + ["plain"]:
            status = self.run(["git", "status", "--porcelain"], cwd=f"{self.root}/{name}").stdout
            if status.strip():
                self.failures.append(f"{name}: git status not clean: {status.strip()[:200]}")
            fsck = self.run(["git", "fsck", "--strict", "--no-progress"], cwd=f"{self.root}/{name}", check=False)
            if fsck.returncode != 0:
                self.failures.append(f"{name}: git fsck --strict: {fsck.stderr.strip()[:300]}")
            self.leftovers(f"{self.root}/{name}")
        fsck = self.run(["git", "fsck", "--strict", "--no-progress"], cwd=self.bare, check=False)
        if fsck.returncode != 0:
            self.failures.append(f"server: git fsck --strict: {fsck.stderr.strip()[:300]}")
        items = {i["id"]: i for i in self.items(first) if i["id"]}
        by_title = {i["title"]: i for i in items.values()}
        self.judge_intents(items, by_title, files)
        for item in items.values():
            if item["title"] not in self.titles_written:
                self.failures.append(f"made up: item {item['id'][:8]} is titled {item['title']!r}, which nobody wrote")
        self.clashes = sum(text.count("todosync clash: this item was also") + text.count("todosync clash: the other side set")
                           + text.count("todosync clash: one version") for text in files.values())
        for name, (process, _) in self.watches.items():
            start, end = self.start_rss.get(name), self.end_rss.get(name)
            if start and end and end > 1.5 * start:
                self.failures.append(f"{name}'s watch grew from {start:.0f} MB to {end:.0f} MB")
            with open(f"{self.root}/{name}.watch.log") as f:
                repeated = [(line, n) for line, n in Counter(l.strip() for l in f if l.strip()).items()
                            if n > 20 and not line.startswith(("Pushed to", "Merged ", "[", "Watching"))]
            for line, n in repeated[:3]:
                self.failures.append(f"{name}'s watch repeated {n} times: {line[:160]}")

    def judge_intents(self, items, by_title, files):
        intents = []
        for at, clone, item, field, value in self.intents:
            if isinstance(item, tuple):  # added in an editor or with plain git: known by its title
                if item[1] not in self.seen:
                    if item[1] not in by_title:
                        self.failures.append(f"lost: {clone}'s item {item[1]!r} never got an id and is gone")
                    continue
                title, item = item[1], self.seen[item[1]]
                intents.append((at, clone, item, "title", title))
                field, value = "exists", True
            intents.append((at, clone, item, field, value))
        intents.sort(key=lambda i: i[0])
        by_item = defaultdict(list)
        newest = {}
        for intent in intents:
            by_item[intent[2]].append(intent)
            newest[(intent[2], intent[3])] = intent

        exchanges = {name: self.exchanges(name) for name in self.clones + ["plain"]}

        def saw(clone, other):
            """Whether `clone` could have seen intent `other` when it made its own at `at`: `other`'s
            clone pushed after making it, and then `clone` fetched or pushed (either brings the
            remote's branch in) before `at`. Seconds are whole in a reflog, so what falls within
            the same second counts as unseen."""
            def check(at):
                published = next((t for t in exchanges[other[1]][1] if t >= int(other[0]) + 1), None)
                return published is not None and any(published + 1 <= t and t + 1 <= at for t in exchanges[clone][0])
            return check

        def concurrent(mine, field=None):
            """Other clones' intents on the item (on the field, if named) that neither side had
            seen when the other made its own."""
            at, clone, item = mine[:3]
            return [i for i in by_item[item] if i[1] != clone and (field is None or i[3] == field)
                    and not saw(clone, i)(at) and not saw(i[1], mine)(i[0])]

        lost = []
        for (item, field), intent in newest.items():
            at, clone, _, _, value = intent
            clone = f"{clone} at {time.strftime('%H:%M:%S', time.localtime(at))}"
            if field in ("place", "touched"):
                continue
            if field == "prose":
                if value not in files.get(item, ""):
                    lost.append(f"prose {value!r} is not in {item}")
                continue
            final = items.get(item)
            if field == "exists" and value is False:
                # MERGE.md: removed on one side and changed on the other, it is kept.
                if final is not None and not concurrent(intent):
                    lost.append(f"{clone} removed {item[:8]}, and nobody else edited it meanwhile, yet it is there")
                continue
            # A later removal changed every field, even where an edit elsewhere kept the item
            # (MERGE.md: it is kept as that edit left it).
            if any(i[3] == "exists" and i[4] is False and i[0] > at for i in by_item[item]):
                continue
            if final is None:
                lost.append(f"{clone}'s {field} of {item[:8]} ({value!r}): the item is gone")
                continue
            notes = [line.strip() for line in (final.get("notes") or "").split("\n")]
            if field == "title":
                clash = f"todosync clash: this item was also renamed to: {value}"
                if final["title"] != value and not any(line.startswith(clash) for line in notes):
                    lost.append(f"{clone} titled {item[:8]} {value!r}; it is {final['title']!r}")
            elif field == "done" and final["done"] != value:
                lost.append(f"{clone} set {item[:8]} done={value}; it is {final['done']}")
            elif field == "notes" and not all(line in notes for line in value.split("\n")):
                lost.append(f"{clone}'s notes of {item[:8]} ({value!r}) are not among {notes}")
            elif field == "note-line" and value not in notes:
                if not any(i[3] == "notes" and i[0] > at for i in by_item[item]):
                    lost.append(f"{clone}'s note line {value!r} of {item[:8]} is not among {notes}")
            elif field == "file" and final["file"] != value:
                # MERGE.md: moved to different files on both sides, the first by path wins.
                if not any(i[4] == final["file"] for i in concurrent(intent) if i[3] in ("file", "place")):
                    lost.append(f"{clone} moved {item[:8]} to {value}; it is in {final['file']}")
        for text in lost[:20]:
            self.failures.append("lost: " + text)
        if len(lost) > 20:
            self.failures.append(f"lost: and {len(lost) - 20} more")

    def tracked_files(self, clone):
        path = f"{self.root}/{clone}"
        names = self.run(["git", "ls-files", "-z"], cwd=path).stdout.split("\0")
        result = {}
        for name in filter(None, names):
            with open(f"{path}/{name}", "rb") as f:
                result[name] = f.read().decode("utf-8", "replace")
        return result

    def leftovers(self, path):
        for folder, _, names in os.walk(path):
            for name in names:
                if name.endswith(".lock") or name.startswith(".todosync-") or name.endswith(".soak~"):
                    self.failures.append(f"left behind: {os.path.relpath(os.path.join(folder, name), self.root)}")
        scratch = f"{path}/.git/todosync/tmp"
        if os.path.isdir(scratch) and os.listdir(scratch):
            self.failures.append(f"left behind in {scratch}: {os.listdir(scratch)[:3]}")

    def commits(self):
        return int(self.run(["git", "rev-list", "--count", "main"], cwd=self.bare).stdout.strip())

    def main(self):
        try:
            self.start_server()
            self.make_clones()
            self.start_watches()
            self.threads = [threading.Thread(target=self.person, args=(c,), daemon=True) for c in self.clones]
            self.threads.append(threading.Thread(target=self.plain_git_user, daemon=True))
            for thread in self.threads:
                thread.start()
            started = time.time()
            self.start_rss = {}
            while time.time() - started < self.seconds:
                time.sleep(1)
                if int(time.time() - started) % 30 == 0:
                    with open(f"{self.root}/memory.log", "a") as log:
                        log.write(f"{time.time() - started:.0f}s " + " ".join(
                            f"{n}:{self.rss(p.pid) or 0:.0f}/{self.rss(p.pid, 'RssAnon') or 0:.0f}/{self.rss(p.pid, 'RssFile') or 0:.0f}"
                            for n, (p, _) in self.watches.items()) + "\n")
                if not self.start_rss and time.time() - started >= min(60, self.seconds / 2):
                    self.start_rss = {n: self.rss(p.pid) for n, (p, _) in self.watches.items()}
                for name, (process, _) in self.watches.items():
                    if process.poll() is not None:
                        self.failures.append(f"{name}'s watch ended early (status {process.returncode})")
                        self.stop.set()
                if self.stop.is_set():
                    break
            self.quiesce()
            self.judge()
        except Exception as error:  # the harness itself failed: say so, as a failure
            self.failures.append(f"{type(error).__name__}: {error}")
        finally:
            self.stop.set()
            for name, (process, _) in getattr(self, "watches", {}).items():
                if process.poll() is None:
                    process.kill()
            self.stop_daemon("nginx")
            self.stop_daemon("fcgiwrap")
        max_rss = max([v for v in getattr(self, "end_rss", {}).values() if v] or [0])
        if self.failures:
            for failure in self.failures:
                print("  " + failure, file=sys.stderr)
            print(f"soak: FAILED: {self.failures[0]} (and {len(self.failures) - 1} more); kept in {self.root}")
            return 1
        syncs = self.counts["syncs"]
        for name in self.clones:
            with open(f"{self.root}/{name}.watch.log") as f:
                syncs += sum(1 for line in f if line.startswith(("Pushed to", "Merged ")))
        print(f"soak: converged, {self.counts['edits']} edits ({len(self.intents)} intents judged, "
              f"{self.counts['undos']} undos, {self.counts['plain commits']} plain git commits), {self.commits()} commits, "
              f"{syncs} syncs, {self.clashes} clashes, max RSS {max_rss:.0f} MB")
        if not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)
        return 0


def main():
    parser = argparse.ArgumentParser(description="A many-clone soak of todosync through a real https server.")
    parser.add_argument("--clones", type=int, default=6)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder after a run that passed")
    parser.add_argument("--todosync", required=True)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"soak: {args.clones} clones for {args.minutes:g} min (seed {seed})", flush=True)
    sys.exit(Soak(args.todosync, args.clones, args.minutes, args.keep, seed).main())


if __name__ == "__main__":
    main()
