import Blocking
/// A pipeline fed through app sources and read through one app sink, worked on a lane of its
/// own so no push or pull holds a cooperative thread. The still encoders keep one playing between
/// photos; a drawing laid over a photo and shots composed into one picture use one once.
///
/// Its description names its app sources `input` (or `input0`, `input1`, … when there are
/// several) and its app sink `output`:
///
/// ```swift
/// let encoder = try await AppPipeline(describing: "appsrc name=input ! jpegenc ! appsink name=output", label: "jpeg")
/// let jpeg = try await encoder.run { () throws(GStreamerError) in
///     try encoder.input.push(frame)
///     return encoder.output.pullSample(timeout: .seconds(10))
/// }
/// await encoder.stop()
/// ```
public final class AppPipeline: Sendable {
    public let pipeline: Pipeline
    /// The app sources, in the order of their numbers.
    public let inputs: [AppSource]
    /// The app sink.
    public let output: AppSink
    /// Pushes, pulls and the property changes between them, in order, off Swift's cooperative threads.
    private let lane: BlockingLane

    /// The only app source, or the first.
    public var input: AppSource { inputs[0] }

    /// Builds the pipeline and sets it playing, without waiting: its sink prerolls on the first
    /// picture. A pipeline that fails to start is stopped.
    public init(describing description: String, inputs count: Int = 1, label: String) async throws(GStreamerError) {
        let pipeline = try Pipeline(describing: description)
        let names = count == 1 ? ["input"] : (0..<count).map { "input\($0)" }
        let inputs = names.compactMap { pipeline.element(named: $0, as: AppSource.self) }
        guard inputs.count == names.count, let output = pipeline.element(named: "output", as: AppSink.self) else {
            throw GStreamerError(.link, "the \(label) pipeline has no app source named \(names[0]) or no app sink named output")
        }
        (self.pipeline, self.inputs, self.output) = (pipeline, inputs, output)
        lane = BlockingLane(label: label)
        do {
            try await pipeline.beginStateChange(to: .playing)
        } catch {
            try? await pipeline.stop()
            throw error
        }
    }

    /// Runs `work` on the pipeline's lane, in order with all other work given to it.
    public func run<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        try await lane.run(work)
    }

    /// Feeds one buffer to each app source, in order, ending each one's stream after it, then
    /// pulls one sample from the app sink and one from each of `more` sinks, waiting at most
    /// `timeout` for each (`nil` for one that gave none): a pipeline used once, for one picture.
    public func transform(_ buffers: [Buffer], timeout: Duration = .seconds(30), pulling more: [AppSink] = []) async throws(GStreamerError) -> [Sample?] {
        let (inputs, sinks) = (inputs, [output] + more)
        return try await run { () throws(GStreamerError) in
            for (input, buffer) in zip(inputs, buffers) {
                try input.push(buffer)
                try input.endOfStream()
            }
            return sinks.map { $0.pullSample(timeout: timeout) }
        }
    }

    /// Stops the pipeline and frees its resources.
    public func stop() async {
        try? await pipeline.stop()
    }
}
