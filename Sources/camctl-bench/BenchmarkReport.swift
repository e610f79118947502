import Foundation
import GStreamer

/// The results as a terminal table and as BENCHMARKS.md.
struct BenchmarkReport {
    let rows: [BenchmarkRow]
    let runs: Int

    var table: String {
        rows.map { row in
            "\(row.name): camctl \(row.camctl.formatted()) \(row.unit), \(row.referenceName) "
                + "\(row.reference.formatted()) \(row.unit), ratio \(String(format: "%.2f", row.ratio))"
        }.joined(separator: "\n")
    }

    /// The rows as BENCHMARKS.md's table lines (a partial run prints them, to replace its rows there).
    var tableRows: String {
        rows.map { row in
            "| \(row.name) | \(row.camctl.formatted()) \(row.unit) | \(row.referenceName): "
                + "\(row.reference.formatted()) \(row.unit) | \(String(format: "%.2f", row.ratio)) | "
                + (row.goal.map { "\($0.statement): " + ($0.isMet ? "met" : "**not met**") } ?? "") + " |\n"
        }.joined()
    }

    var markdown: String {
        let date = ISO8601DateFormatter().string(from: Date())
        let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB"
        var text = """
            # Benchmarks

            Measured by `scripts/bench` on \(date), \(machine), \
            GStreamer \(GStreamerRuntime.version). Each figure is the median of \(runs) runs after a \
            warm-up, with the range in brackets; camctl and the reference run interleaved in the same \
            process run, so they see the same machine. The ratio is camctl's median over the reference's.

            | measurement | camctl | reference | ratio | goal |
            |---|---|---|---|---|

            """
        text += tableRows + """

            How each row is measured:

            - *Frame delivery*: a non-live `videotestsrc` into an `appsink`, every frame handed to a \
            Swift `for await` loop through `AppSink.samples()` and read in place (one byte, no copy). \
            The reference is `gst-launch-1.0` with the same source into `fakesink sync=false`; its time \
            for one frame is subtracted from its time for all frames, so process start-up cancels out. \
            Both sides include the cost of generating the test pattern.
            - *VideoDataOutput*: a capture session on the live test camera at 1920x1080, 120 fps, frames \
            delivered to a Swift consumer through `videoDataOutput.frames()`, 240 frames a run. The \
            reference is the rate the camera runs at: 1.00 means no frame was lost.
            - *Shutter lag*: `photoOutput.capture()` with speed prioritization on a running session (10 \
            captures): to the JPEG with EXIF and a 320-pixel thumbnail in memory, and to the photo \
            durable in a photo library (file fsynced and renamed, folder fsynced, SQLite row). The frame \
            age is the request's running time minus the chosen frame's timestamp: zero shutter lag keeps \
            it under one frame interval (33 ms at 30 fps, 67 ms at 15 fps). The reference is GStreamer's \
            camerabin on a live videotestsrc through wrappercamerabinsrc, driven from Swift: \
            `start-capture` to its `image-done` message (the JPEG written to a file, not fsynced), after \
            one warm-up capture.
            - *Burst*: `photoOutput.captureBurst(count: 30)` on the live test camera: 30 consecutive, \
            distinct frames, each encoded as it arrives, with thumbnails. The reference is \
            `gst-launch-1.0 videotestsrc ! jpegenc ! fakesink` on the same size, the encoder's ceiling \
            on one thread; camctl can exceed it because the camera, the photo encoder and the thumbnail \
            encoder run on separate threads over the two cores.
            - *HEIC against heif-enc*: a 4032x3024 picture of GStreamer's colour pattern as a camera would \
            give it (limited-range 4:2:0, converted back to RGB), written as a lossless PNG and used as a \
            camera by `camctl capture --hevc` (quality 90), against libheif's `heif-enc` on the same PNG \
            at the lowest quality (binary search) whose luma PSNR is at least camctl's; both are decoded \
            by heif-convert and judged by ffmpeg's psnr filter on luma (chroma is subsampled alike by \
            both). Two ways: at once (`--now --no-library --output F`, x265's ultrafast preset, as bursts \
            need), and finished after the shot (into a library, x265's slow preset; the command ends once \
            the HEIC replaced its proxy, so its time is the time until the final file exists). Times are \
            whole processes, PNG in, HEIC out. *Shutter lag with --hevc* takes HEIC photos on the same \
            session as the JPEG shutter-lag rows, alternately: finished later, to the JPEG proxy, its \
            thumbnail and its spooled frame in the library (the frame packed, checked by a CRC-32, written \
            without an fsync); at once, to the HEIC durable in the library. *The curve* (`--only \
            heic-curve`): the same pattern at 1920x1080, captured into a library (finished after the shot) \
            at camctl's qualities 75, 90 and 95, each against heif-enc at the lowest quality as close to \
            the source, from the 8-bit PNG and (`-b 10`) from a 16-bit copy of it; heif-enc's \
            `--full_range_flag` changes only the flag it writes, not its encoding, so limited range cannot \
            be asked of it.
            - *Memory and CPU*: whole processes under GNU time (peak resident memory `%M`, user + system \
            CPU `%U + %S`), one run each. The preview row runs `camctl preview` on the live test camera at \
            1920x1080@30 into fakesink (its still branch kept, as a preview that may take photos has it) \
            against gst-launch-1.0 teeing the same source to a full-size and a 1280x720 fakesink for the \
            same number of frames; CPU is scaled to one minute. The preview taking no photos runs `camctl \
            preview --no-photos` (no frame held for photos) against gst-launch's 1280x720 branch alone. \
            The burst row runs a description file (`burst 100`) into a library against gst-launch encoding \
            100 frames into files.
            - *Start to photo saved*: the wall-clock time of a whole `camctl capture` process (release \
            build) that starts the test camera at 1920x1080 and writes one JPEG with EXIF and a \
            thumbnail, flushed to disk (into the library, with its SQLite row, in the second row), \
            against a whole `gst-launch-1.0` or `ffmpeg` process writing one 1920x1080 JPEG of its test \
            source (no EXIF, no thumbnail, no fsync), alternately, 10 runs each. *Start to first preview \
            frame* runs `camctl preview` with a sink that writes each frame to a file, unbuffered, \
            against `gst-launch-1.0` with the same live source and sink; both are timed to the first \
            byte in the file (polled every 0.5 ms) and then killed.
            - *One photo, 12 MP, `--version`*: the one-photo memory rows run `camctl capture --device \
            test --no-library --output F` at 1920x1080 and 4032x3024 under GNU time against \
            `gst-launch-1.0 videotestsrc num-buffers=1 ! jpegenc ! filesink` at the same size; the 12 MP \
            start-up row times the same capture as the 1080p one, and `camctl --version` is timed \
            against `gst-launch-1.0 --version` (the cost of starting each program at all).
            - *Latency*: a live 1920x1080@30 `videotestsrc` into an app sink; for each frame, the \
            pipeline's running time when the Swift consumer has it minus the frame's timestamp, against \
            the same difference taken by a pad probe on the app sink's pad, on the streaming thread \
            (where a C sink would have the frame).
            - *Filters and zoom*: one session on the 1920x1080 test camera asked for 300 fps (more than \
            the machine makes), with a 1280x720 preview into `fakesink sync=false` and frames into \
            Swift; frames per second reaching Swift over 2 s with each setting, changed live, against \
            the same session with none, alternately.
            - *camctl serve*: the release `camctl serve` on the live test camera at 1920x1080@30, \
            measured by `scripts/serve-probe.py` (Debian's Python, on the same machine). A snapshot is a \
            new connection's `GET /snapshot.jpg` read to its last byte. The live picture's age is, for \
            every part of `GET /stream.mjpg` read in 5 s, the monotonic clock at its last byte minus its \
            `X-Captured-Monotonic` header (the camera's capture, from the frame's timestamp and the \
            pipeline's clock); its reference is one frame interval plus one 1280x720 JPEG encode \
            (`gst-launch-1.0 videotestsrc num-buffers=150 ! jpegenc quality=80 ! fakesink`, per frame). \
            The CPU row is camctl's user and system time from `/proc` over the same 5 s with 20 viewers \
            reading, against one.
            - *Fleet*: `scripts/fleet-probe.py` starts a mosquitto broker on a free port and 20 release \
            `camctl serve` nodes on the test camera at 160x120@30, all on this 2-core machine, and \
            watches the fleet's topics with `mosquitto_sub`. Fan-out is a command to the whole fleet \
            (each node lists one photo of its library) from its publication by a connected \
            `mosquitto_pub -l` to the last node's answer read by the watcher; the reference is the same \
            with one node. A synchronized capture asks every node for the frame nearest an instant one \
            second ahead; the skew is the latest less the earliest frame instant reported, the offsets \
            each node's distance from the instant. The cameras run free at 30 fps in unrelated phases, \
            so each node is within half a frame interval of the instant and two nodes within one frame \
            interval of each other: the rows show exactly that bound, and no message delay in it.
            - *A fleet of 200, projected*: the broker's part grows least. A command is one message of \
            about 150 bytes that mosquitto copies to each subscriber, and each node answers with one \
            event, so 200 nodes are 200 small messages each way per command (30 KB) and a status from \
            each every 10 s (about 12 KB/s in all). The fan-out measured here is mostly each node's own \
            work (1.2–43 ms for one node on a busy machine) and grew by 1.17x from 1 to 20 nodes sharing \
            two cores; with a machine per node it stays the network's round trip plus one node's work, \
            so the default lead of `fleet capture --at 1` leaves ample room at 200. The skew does not \
            grow with the count: it is bounded by the frame interval (free-running cameras; hardware \
            triggering would remove it) plus the clocks' agreement, which is the time daemon's to keep \
            (chrony for NTP, linuxptp for PTP where the network supports it) and which each node's \
            status reports (`clock`) and `camctl fleet` warns about. What grows is media: collecting one \
            synchronized capture of 200 1080p JPEGs (about 400 KB each) moves about 80 MB, under a \
            second on gigabit Ethernet and seven on 100 Mbit/s, and 200 RTSP previews at the default 2 \
            Mbit/s would need 400 Mbit/s if all were watched at once, so a wall of previews watches a \
            chosen few, or nodes run with a lower bit rate.
            - *Memory over 10 minutes*: `camctl preview` at 1920x1080@30 with a photo every 10 s \
            (SIGUSR1) into a library, and `gst-launch-1.0` running the same preview branches at the same \
            time, resident memory (VmRSS) sampled every 5 s; growth is counted from the first minute, \
            once buffer pools and caches are warm.

            - *Recording*: `camctl record --device test --resolution 1920x1080@30 --duration 60` into a \
            library, under GNU time, against `gst-launch-1.0 -e` running the test source for the same \
            1800 frames into x264 with camctl's settings (`veryfast`, `zerolatency`, a key frame every 2 \
            s, camctl's bit rate for the size) and `mp4mux` with one-second fragments. *Stop to finished \
            movie*: each recording is stopped 3.5 s after it started (camctl with SIGUSR2, gst-launch with \
            SIGINT, its end of stream) and timed to the process's exit; camctl's includes keeping the \
            movie (cut to whole fragments, synced, moved into the library, thumbnail, index row) and \
            stopping its session.

            ## What limits the goals not met

            - *Start-up* (1.2x gst-launch's one-shot pipeline): a session builds only what it is asked \
            for: neutral image settings build no element (the camera is linked to the tee), and the photo \
            encoders start on the first photo, with only the elements their shape needs, or beside the \
            camera for the photos a front end says will come (`PhotoOutput.setPreparedPhotoSettings`, as \
            `capture` does). A description in the plain form camctl writes is built element by element as \
            gst_parse builds it, but its pads linked directly, checked against their templates, instead of \
            gst_parse's caps queries along the chain at every link (4.2 ms against 0.1 for a preview's \
            pipeline, measured apart). gst-rtsp-server, with GIO behind it, is loaded when an RTSP server \
            starts rather than linked, so every command's start loads 28 shared libraries instead of 37 \
            (`camctl --version` 7.3 to 4.9 ms, `perf stat -r 40`). Together, in one run alternating the \
            build before these steps and after (20 runs each, whole processes): the 1080p one-shot 35.1 to \
            32.5 ms (gst-launch 25.0: 1.30) and the preview's first frame 35.5 to 29.9 ms. What remains of \
            the one-shot, from marks in the process: GStreamer's initialisation (about 6 ms) and the test \
            source's first 1080p frame (5 ms) as for gst-launch; the frame's way from the pipeline \
            reaching PLAYING to the photo asked for, under 1 ms; the stretch to JPEG's full range 2 ms \
            (the stretch itself, vectorised, half of it: the rest is the new 3 MB buffer's page faults); \
            the photo and its thumbnail encoded side by side 4 to 7 ms; the durable write (file and folder \
            fsynced) 1.3 ms; an orderly stop 1.2 ms. The largest difference left is the executable's own \
            start: its 28 libraries and 36 MB (4.9 ms against a Swift program's 1.5 ms), then the stretch \
            and the durability gst-launch does not give.
            - *Peak memory* (1.3x gst-launch): 11 MiB of camctl's resident memory is its own executable \
            (the Swift runtime, FoundationEssentials and camctl, 10 MB of code, mapped by the kernel in 64 \
            KiB runs around each page touched, whatever `madvise` says), against 14 MiB anonymous in a \
            1080p preview; zero shutter lag keeps the latest full-size frame out of the camera's buffer \
            pool. `--no-photos` (`preview`, `record`) holds no frame for photos: the preview peaks 2.7 MiB \
            lower (37.0 to 34.3, one 1080p frame), a recording 6 MiB lower in this run (98.2 to 92.1; its \
            peak moves by 4 MB from run to run). Against gst-launch's preview branch alone (15.5 MiB) that \
            is 2.21: the executable's 11 MiB and the tee's queue of up to two full-size frames are most of \
            the difference. A burst also holds frames and photos within its budget (`--burst-memory`, 32 \
            MiB). Since Foundation (with ICU's data) was left out, the preview's peak went from 46.9 to \
            38.7 MiB and the deployed binary from 80.3 to 31.1 MB.
            - *HEIC size* (no larger than heif-enc's): finished after the shot, with x265's slow preset, \
            camctl's file is 292.7 KiB against 316.2 at once (ultrafast), at a higher PSNR; other x265 \
            settings (no adaptive quantisation, rd 6, transform skip, more intra depth, slower presets) \
            moved it little at matched PSNR. The rest is heif-enc's full-range YCbCr, made from the RGB it \
            is given, where camctl encodes the camera's limited-range frames as they come: limited range \
            costs about 1.3 dB of luma PSNR at the same bits (255/219 of the coding error), and stretching \
            the frames to full range before encoding rounds each sample once more: tried with videobalance \
            and a caps setter (48.8 dB), and again with camctl's exact stretch and the encoder, its VUI \
            and the file's `colr` set to full range, at 1920x1080 and quality 90 it gave 47.9 dB in 136.8 \
            KiB against limited range's 49.0 dB in 123.4 KiB, worse on both counts, so camctl keeps the \
            camera's range. The curve at 1920x1080 (`scripts/bench --only heic-curve`) shows the gap \
            growing with quality, 1.14 at camctl's quality 75, 1.15 at 90, 1.39 at 95, and answers whether \
            10-bit would be the better mode: heif-enc's own 10-bit encoding of the same 8-bit picture (a \
            16-bit copy) needs more bytes than its 8-bit one at every point of the curve, 9 to 63 % more \
            (at 95, 229.0 KiB against 140.4), so a camera's 8-bit frames gain nothing from 10 bits; camctl \
            offers none. *Time to the final HEIC* (3.2 s against heif-enc's 2.3 s) is the slow preset's; \
            the shutter does not wait for it.
            - *Shutter lag with --hevc* (1.2x JPEG's): the proxy is JPEG's, and the spooled frame is \
            written straight from the frame's buffer (no packed copy, its CRC-32 taken as it is written): \
            at 1080p this is met (8.8 against 8.0 ms, 1.11). At 12 MP the 51 ms more than JPEG's are \
            writing 18 MB into the page cache inside the library's transaction, and on this virtual \
            machine that is the first touch of memory the guest has not used yet: the same 18 MB written \
            by Python take 45 ms into fresh pages and 5 ms into pages freed just before (the spools of a \
            run are kept until their HEICs are finished, so each write here takes fresh ones). The spool \
            must reach the page cache before the finisher reads it; written after the row's commit \
            instead, the shutter would not wait for it, but a processing photo would then be visible \
            without its spool, and another process finishing photos meanwhile would keep its proxy as the \
            photo: not done. A HEIC encoded at once takes 385 ms at 12 MP. Not waiting for the disk (no \
            fsync) took 78 to 67 ms, a CRC-32 instead of a SHA-256 150 to 78 ms.
            - *Recording* (memory 1.3x gst-launch's; CPU 1.1x, met in earlier runs at 1.01 and 1.05 with \
            the fair reference and 1.00 here with sound, 1.13 in this run): the encoder costs the same \
            (x264 with the same settings on the same frames, at most two frames waiting for it); the \
            difference is the capture session around it, the same as a preview's (the executable's code, \
            the tee, the frames handed from the session to the writer's pipeline). The recording's own \
            memory is flat: sampled every 10 s over 90 s, 95.3 to 95.4 MB, its peak reached in the first \
            10 s. The photo encoders start on the first photo, so a recording that takes none starts none, \
            and `record --no-photos` holds no frame for photos (92.1 MiB against 98.2 in this run, 1.48 \
            against gst-launch). *Stop to finished movie* is camctl's 20 to 35 ms of keeping the movie \
            durably and stopping the session, against gst-launch's end of stream alone.
            - *Noise*: this 2-core machine's figures move between runs of the same build; the 1080p JPEG \
            burst read 0.67, 0.85, 0.90 and 0.98 in four runs within ten minutes, and gst-launch's own \
            one-shot start-up 27 to 37 ms. A goal missed in one run is met or missed for good only when \
            it is missed run after run.

            """
        return text
    }
}
