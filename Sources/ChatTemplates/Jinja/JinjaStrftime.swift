import Foundation

/// C's `strftime` in the C locale, as Python's `datetime.strftime` writes dates on Linux, for
/// `strftime_now`: the directives chat templates use (`%d %b %Y`, `%Y-%m-%d`, `%B %d, %Y`), with
/// glibc's `-` flag that drops padding (`%-d`).
enum JinjaStrftime {
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December"]

    /// `date` in `timeZone` written with `format`.
    static func format(_ date: Date, _ format: String, timeZone: TimeZone = .current) throws(JinjaFailure) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let year = parts.year ?? 1970
        let month = parts.month ?? 1
        let day = parts.day ?? 1
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        let second = parts.second ?? 0
        let weekday = (parts.weekday ?? 1) - 1
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        let hour12 = hour % 12 == 0 ? 12 : hour % 12

        var result = ""
        var scalars = format.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            guard var directive = scalars.next() else {
                result += "%"
                break
            }
            var padded = true
            if directive == "-", let next = scalars.next() {
                padded = false
                directive = next
            }
            func number(_ value: Int, width: Int = 2, pad: String = "0") -> String {
                let text = String(value)
                guard padded, text.count < width else { return text }
                return String(repeating: pad, count: width - text.count) + text
            }
            switch directive {
            case "a": result += String(weekdays[weekday].prefix(3))
            case "A": result += weekdays[weekday]
            case "b", "h": result += String(months[month - 1].prefix(3))
            case "B": result += months[month - 1]
            case "d": result += number(day)
            case "e": result += number(day, pad: " ")
            case "H": result += number(hour)
            case "I": result += number(hour12)
            case "j": result += number(dayOfYear, width: 3)
            case "m": result += number(month)
            case "M": result += number(minute)
            case "p": result += hour < 12 ? "AM" : "PM"
            case "S": result += number(second)
            case "y": result += number(year % 100)
            case "Y": result += String(year)
            case "u": result += String(weekday == 0 ? 7 : weekday)
            case "w": result += String(weekday)
            case "D": result += number(month) + "/" + number(day) + "/" + number(year % 100)
            case "F": result += String(year) + "-" + number(month) + "-" + number(day)
            case "T", "X": result += number(hour) + ":" + number(minute) + ":" + number(second)
            case "R": result += number(hour) + ":" + number(minute)
            case "x": result += number(month) + "/" + number(day) + "/" + number(year % 100)
            case "c":
                result += String(weekdays[weekday].prefix(3)) + " " + String(months[month - 1].prefix(3)) + " " + number(day, pad: " ") + " "
                    + number(hour) + ":" + number(minute) + ":" + number(second) + " " + String(year)
            case "Z": result += timeZone.abbreviation(for: date) ?? ""
            case "z":
                let offset = timeZone.secondsFromGMT(for: date) / 60
                result += (offset < 0 ? "-" : "+") + number(abs(offset) / 60) + number(abs(offset) % 60)
            case "n": result += "\n"
            case "t": result += "\t"
            case "%": result += "%"
            default: throw .unsupported("strftime directive '%\(directive)'")
            }
        }
        return result
    }
}
