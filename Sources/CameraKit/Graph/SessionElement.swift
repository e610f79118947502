/// The names of the session pipeline's elements that camctl looks up, each in one place: the
/// pipeline's text names them from here, and ``SessionGraph`` finds them by these names.
enum SessionElement: String, CaseIterable, Sendable {
    // The camera's bin.
    /// The camera's source element (`filesrc` for a file camera).
    case camera
    /// The decoder of a file used as a camera.
    case fileDecoder = "camera_decoder"
    /// The first element after a file camera's decoder.
    case fileDecoderOutput = "camera_decoded"
    /// The tee that splits an MJPEG camera's JPEG frames from their decode.
    case cameraJPEGSplit = "camera_jpeg"
    /// The app sink that receives an MJPEG camera's own JPEG frames.
    case cameraJPEGs = "camera_jpeg_frames"
    /// The app sink that receives them for the live JPEG frames, when they pass as they are.
    case cameraLiveJPEGs = "camera_live_jpegs"
    /// The camera bin's last element, whose source pad the bin exposes.
    case cameraOutput = "camera_output"

    // Between the camera and the tee.
    /// The first element after the camera, where a new camera is linked.
    case cameraInput = "camera_input"
    /// The end of the custom filters (``SessionConfiguration/filters``), when there are any.
    case filtersOutput = "filters_output"
    /// The aspect-ratio and zoom crop.
    case crop = "image_crop"
    /// The capsfilter of the picture's size after the crop.
    case size = "image_size"
    /// The colour adjustments.
    case balance = "image_balance"
    /// The first and last elements of the picture's bin.
    case lookStart = "image_look_start"
    case lookEnd = "image_look_end"
    /// The drawing laid over the picture, in every pipeline that has one: its errors mean the
    /// drawing could not be decoded.
    case drawing
    /// The `alpha` element keying a green screen out, and the element under whose frames its
    /// background is laid.
    case key = "image_key"
    case backdrop = "image_backdrop"
    /// The tee every output's branch starts at.
    case split

    // The outputs' branches.
    /// The photo output's app sink.
    case stills
    /// The video data output's app sink.
    case frames
    /// The valve that pauses the preview.
    case previewValve = "preview_valve"
    /// The capsfilter that fits the picture into the preview.
    case previewSize = "preview_size"
    /// The `videoflip` that turns and mirrors the preview.
    case previewOrientation = "preview_orientation"
    /// The text drawn over the preview.
    case previewText = "preview_text"
    /// The last photo's thumbnail drawn in the preview's corner.
    case lastPhoto = "last_photo"
    /// The brightness the preview dims with when a photo is taken.
    case shutter = "preview_shutter"
    /// The valve closed while the live JPEG frames have no receiver.
    case liveValve = "live_valve"
    /// The capsfilter that fits the picture into the live frames' size.
    case liveSize = "live_size"
    /// The `videoflip` that turns and mirrors the live frames as the preview.
    case liveOrientation = "live_orientation"
    /// The app sink of the live JPEG frames.
    case liveFrames = "live_frames"
    /// The valve closed while the live H.264 frames have no receiver.
    case h264Valve = "h264_valve"
    /// The capsfilter that fits the picture into the live H.264 frames' size.
    case h264Size = "h264_size"
    /// The `videoflip` that turns and mirrors the live H.264 frames as the preview.
    case h264Orientation = "h264_orientation"
    /// The app sink of the live H.264 frames.
    case h264Frames = "h264_frames"

    /// The leaky queue before the movie's valve, whose overruns are frames a recording lost.
    case movieQueue = "movie_queue"
    /// The valve closed while no movie is recorded.
    case movieValve = "movie_valve"
    /// The capsfilter that gives the movie's frames its size.
    case movieSize = "movie_size"
    /// The `videoflip` that turns (and mirrors) the movie's frames as photos are.
    case movieOrientation = "movie_orientation"
    /// The app sink of the movie's frames.
    case movieFrames = "movie_frames"

    /// The identity element where the filters' tone segment at `index` is applied.
    static func tone(_ index: Int) -> String { "image_tone_\(index)" }
    /// The `textoverlay` drawing the look's text at `index`.
    static func text(_ index: Int) -> String { "image_text_\(index)" }

    /// `name=…`, as the pipeline's text gives it.
    var assignment: String { "name=\(rawValue)" }
}
