import Testing
@testable import SIP

/// Digest responses against the RFCs' published examples.
@Suite struct DigestAuthenticationTests {
    /// RFC 2617 §3.5: MD5 with qop=auth.
    @Test func rfc2617ExampleMD5() {
        let challenge = DigestChallenge(realm: "testrealm@host.com", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093", algorithm: .md5)
        let credentials = DigestCredentials(username: "Mufasa", password: "Circle Of Life")
        let response = credentials.response(to: challenge, method: "GET", uri: "/dir/index.html", cnonce: "0a4f113b", nonceCount: 1)
        #expect(response == "6629fae49393a05397450978507c4ef1")
    }

    /// RFC 7616 §3.9.1: the same request answered with MD5 and with SHA-256 (the algorithm RFC 8760 brings to SIP).
    @Test(arguments: [
        (DigestAlgorithm.md5, "8ca523f5e9506fed4657c9700eebdbec"),
        (DigestAlgorithm.sha256, "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
    ])
    func rfc7616Example(algorithm: DigestAlgorithm, expected: String) {
        let header =
            "Digest realm=\"http-auth@example.org\", qop=\"auth, auth-int\", algorithm=\(algorithm.rawValue), "
            + "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\""
        let challenge = DigestChallenge(parsing: header)
        #expect(challenge?.algorithm == algorithm)
        #expect(challenge?.offersAuthQOP == true)
        let credentials = DigestCredentials(username: "Mufasa", password: "Circle of Life")
        let response = challenge.map {
            credentials.response(to: $0, method: "GET", uri: "/dir/index.html", cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", nonceCount: 1)
        }
        #expect(response == expected)
    }

    @Test func unsupportedAlgorithmsAndOtherSchemesAreNotChallengesWeAnswer() {
        #expect(DigestChallenge(parsing: "Digest realm=\"a\", nonce=\"b\", algorithm=MD5-sess") == nil)
        #expect(DigestChallenge(parsing: "Basic realm=\"a\"") == nil)
        #expect(DigestChallenge(parsing: "Digest realm=\"a\"") == nil)
    }

    @Test func aRetriedRequestCarriesTheAuthorizationAndANewCSeqAndBranch() throws {
        let invite = try #require(SIPMessageTests.parseRequest(SIPMessageTests.invite))
        var challenge = SIPResponse(answering: invite, statusCode: 407, toTag: "x")
        challenge.headers.add("Proxy-Authenticate", "Digest realm=\"sipp\", nonce=\"abc\", algorithm=SHA-256, qop=\"auth\"")
        let retried = try #require(
            DigestCredentials(username: "u", password: "p").retry(invite, challengedBy: challenge, cseq: 2, via: "SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bKnew")
        )
        #expect(retried.headers.cseq == CSeq(number: 2, method: "INVITE"))
        #expect(retried.headers.topVia?.branch == "z9hG4bKnew")
        let authorization = try #require(retried.headers["Proxy-Authorization"])
        #expect(authorization.hasPrefix("Digest username=\"u\", realm=\"sipp\", nonce=\"abc\""))
        #expect(authorization.contains("algorithm=SHA-256"))
        #expect(authorization.contains("qop=auth, nc=00000001"))
    }
}
