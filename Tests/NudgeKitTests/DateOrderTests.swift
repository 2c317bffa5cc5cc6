import Foundation
import NudgeCore
import NudgeKit
import Platform
import Testing
import TestSupport

/// The order a locale writes a numeric date in, from its short date (issue 54): what `3/4`
/// means to the person.
@Suite(.onTestThreads)
struct DateOrderTests {
    @Test(arguments: [("en_US", DateOrder.monthFirst), ("ko_KR", .monthFirst), ("ja_JP", .monthFirst), ("en_GB", .dayFirst),
                      ("de_DE", .dayFirst), ("fr_FR", .dayFirst), ("pl_PL", .dayFirst), ("en_AU", .dayFirst)])
    func aLocalesShortDateDecides(locale: String, order: DateOrder) {
        #expect(DateOrder.of(locale: locale) == order)
    }

    /// C, and a locale the C library lacks, know no order: a date both orders allow is refused.
    @Test func cAndAMissingLocaleHaveNone() {
        #expect(DateOrder.person(environment: ["LANG": "C"]) == nil)
        #expect(DateOrder.person(environment: [:]) == nil)
        #expect(DateOrder.person(environment: ["LANG": "xx_YY.UTF-8"]) == nil)
    }
}
