/// How much a picture moved from one frame to the next: the mean difference of their grey
/// levels, from 0 (the same) to 1 (black became white everywhere).
public enum MotionScore {
    /// The score of `frame` after `previous`, both `width` x `height` grey levels with rows
    /// `stride` bytes apart; 0 when either is smaller than that.
    public static func between(_ previous: UnsafeRawBufferPointer, _ frame: UnsafeRawBufferPointer,
                               width: Int, height: Int, stride: Int) -> Double {
        guard width > 0, height > 0, stride >= width, previous.count >= stride * (height - 1) + width,
              frame.count >= stride * (height - 1) + width else { return 0 }
        var total = 0
        for row in 0..<height {
            let start = row * stride
            for column in start..<start + width {
                total += abs(Int(previous[column]) - Int(frame[column]))
            }
        }
        return Double(total) / Double(width * height * 255)
    }
}
