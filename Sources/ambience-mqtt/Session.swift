import AmbienceClient
import AmbienceCommandLine
import AmbienceCore
import AmbienceMQTT
import AmbienceSystem
import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

/// The bridge, a source of the event loop: the broker's socket (writable asked only while
/// libmosquitto has something to send) and the daemon's pipe; libmosquitto is driven by hand
/// (loop_read, loop_write, loop_misc) and never runs a thread of its own. Connections are made
/// with the async calls and retried here, with backoff and jitter. The waits outside the loop are
/// the broker's name being resolved when a connection starts (getaddrinfo(3) blocks) and, on
/// leaving, at most 2 s for the DISCONNECT to go out.
final class Session: EventSource {
    enum Link: Equatable {
        /// Not connected; the next attempt at `retryAt`.
        case idle(retryAt: Double)
        /// A TCP (and TLS) connection and CONNECT under way since `since`.
        case connecting(since: Double)
        case connected
    }

    let configuration: MQTTConfiguration
    let deviceID: String
    let logger: Logger
    let bridge: Bridge
    let clock = SystemClock()
    private var client: OpaquePointer?
    private var link = Link.idle(retryAt: 0)
    private var everConnected = false
    private var attemptedOnce = false
    private var backoff = Backoff(base: 1, cap: 60)
    private var trouble: FaultReport
    /// libmosquitto's own explanation of the latest failure (a TLS verification error, say).
    private var libraryError: String?
    private var lines = LineFramer()
    private var random = SystemRandomNumberGenerator()
    private let follower: PipeFollower
    private var loop: EventLoop?
    private var exitCode = ExitCode.ok

    init(configuration: MQTTConfiguration, deviceID: String, password: String?, logger: Logger) {
        self.configuration = configuration
        self.deviceID = deviceID
        self.logger = logger
        let topics = Topics(
            prefix: configuration.topicPrefix, deviceID: deviceID,
            discoveryPrefix: configuration.discoveryPrefix)
        let discovery =
            configuration.discovery
            ? Discovery(
                topics: topics, name: configuration.name ?? "Ambience \(deviceID)")
            : nil
        var generator = SystemRandomNumberGenerator()
        bridge = Bridge(
            settings: Bridge.Settings(
                topics: topics, discovery: discovery, perEntityDiscovery: configuration.discoveryPerEntity),
            random: { Double.random(in: 0..<1, using: &generator) })
        trouble = FaultReport(
            log: { [logger] in logger.log(.error, $0) }, recovery: { [logger] in logger.log(.notice, $0) })
        self.password = password
        follower = PipeFollower(path: configuration.pipe)
    }

    private let password: String?

    private var broker: String { "\(configuration.broker.host):\(configuration.broker.port)" }

    func run() -> ExitCode {
        let loop: EventLoop
        do {
            loop = EventLoop(
                waiter: SignalLoopWaiter(try SignalWaiter(signals: [SIGTERM, SIGINT]), clock: clock))
        } catch {
            logger.log(.error, "cannot watch for signals: \(error)")
            return .failure
        }
        guard let client = makeClient() else { return .failure }
        self.client = client
        self.loop = loop
        defer {
            mosquitto_destroy(client)
            mosquitto_lib_cleanup()
        }
        logger.log(
            .notice,
            "ambience mqtt \(deviceID): broker \(configuration.broker.tls ? "mqtts" : "mqtt")://\(broker),"
                + " topics \(bridge.settings.topics.prefix)/\(deviceID)/…, pipe \(configuration.pipe)")
        loop.add(self)
        loop.run()
        // The loop holds its sources, and this source its loop.
        loop.remove(self)
        return exitCode
    }

    var interest: Interest {
        guard let client else { return Interest() }
        var interest = Interest(reading: follower.descriptors)
        let socket = mosquitto_socket(client)
        if socket >= 0 {
            // Asked again on every turn: the descriptor changes with each connection.
            interest.reading.append(FileDescriptor(rawValue: socket))
            if mosquitto_want_write(client) { interest.writing.append(FileDescriptor(rawValue: socket)) }
        }
        // At least once a second: loop_misc keeps the keepalive (PINGREQ, and noticing no PINGRESP).
        interest.deadline = clock.now + 1
        if case .idle(let retryAt) = link { interest.deadline = min(interest.deadline, retryAt) }
        interest.deadline = min(interest.deadline, follower.wakeDeadline, bridge.nextDeadline ?? .infinity)
        return interest
    }

    func serve(_ wake: Wake) {
        guard let client else { return }
        let socket = FileDescriptor(rawValue: mosquitto_socket(client))
        switch wake {
        case .signal(let signal):
            logger.log(.notice, "signal \(signal): shutting down")
            leave(.ok)
            return
        case .readable(socket):
            // loop_read also drains what TLS holds decrypted already (it reads on while
            // SSL_pending says so), which poll(2) on the socket could not tell.
            check(mosquitto_loop_read(client, 1), "read")
        case .writable(socket):
            check(mosquitto_loop_write(client, 1), "write")
        case .deadline, .readable, .writable:
            break
        }
        if mosquitto_socket(client) >= 0 { check(mosquitto_loop_misc(client), "keepalive") }
        if let failure = drain() {
            logger.log(.error, failure)
            leave(.failure)
            return
        }
        let now = clock.now
        if case .idle(let retryAt) = link, now >= retryAt { attemptConnection(now: now) }
        if case .connecting(let since) = link, now - since > Double(configuration.keepalive) {
            connectionFailed("no answer from the broker within \(configuration.keepalive) s", now: now)
        }
        perform(bridge.tick(now: now))
    }

    private func leave(_ code: ExitCode) {
        shutDown()
        exitCode = code
        loop?.stop()
    }

    // MARK: The connection

    private func makeClient() -> OpaquePointer? {
        mosquitto_lib_init()
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        guard let client = mosquitto_new("ambience-\(deviceID)", true, userdata) else {
            logger.log(.error, "cannot make an MQTT client: \(String(cString: strerror(errno)))")
            return nil
        }
        let topics = bridge.settings.topics
        var ok = true
        func require(_ rc: Int32, _ what: String) {
            guard rc != Int32(MOSQ_ERR_SUCCESS.rawValue) else { return }
            logger.log(.error, "\(what): \(String(cString: mosquitto_strerror(rc)))")
            ok = false
        }
        require(
            mosquitto_will_set(client, topics.status, 7, "offline", 1, true), "cannot set the last will")
        if let username = configuration.username {
            require(mosquitto_username_pw_set(client, username, password), "cannot set the credentials")
        }
        if configuration.broker.tls {
            // No CA file: the system's CAs (Debian's /etc/ssl/certs).
            let caPath = configuration.caFile == nil ? "/etc/ssl/certs" : nil
            require(
                mosquitto_tls_set(
                    client, configuration.caFile, caPath, configuration.certFile, configuration.keyFile, nil),
                "cannot set up TLS (ca_file, cert_file, key_file)")
        }
        mosquitto_connect_callback_set(client) { _, userdata, rc in
            Session.from(userdata).connectAnswered(rc)
        }
        mosquitto_disconnect_callback_set(client) { _, userdata, rc in
            Session.from(userdata).disconnected(rc)
        }
        mosquitto_message_callback_set(client) { _, userdata, message in
            guard let message = message?.pointee else { return }
            Session.from(userdata).received(message)
        }
        mosquitto_log_callback_set(client) { _, userdata, level, text in
            guard level & MOSQ_LOG_ERR != 0, let text else { return }
            Session.from(userdata).libraryError = String(cString: text)
        }
        guard ok else {
            mosquitto_destroy(client)
            return nil
        }
        return client
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> Session {
        Unmanaged<Session>.fromOpaque(userdata!).takeUnretainedValue()
    }

    private func attemptConnection(now: Double) {
        guard let client else { return }
        libraryError = nil
        // Resolves the broker's name (blocking) and starts a non-blocking TCP connection.
        let rc =
            attemptedOnce
            ? mosquitto_reconnect_async(client)
            : mosquitto_connect_async(
                client, configuration.broker.host, Int32(configuration.broker.port),
                Int32(configuration.keepalive))
        attemptedOnce = true
        if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
            link = .connecting(since: now)
        } else {
            connectionFailed(describe(rc), now: now)
        }
    }

    /// The attempt failed or the connection was lost: the next attempt after a backoff.
    private func connectionFailed(_ reason: String, now: Double) {
        if link == .connected { bridge.disconnected() }
        let delay = backoff.nextDelay(random: { Double.random(in: 0..<1, using: &random) })
        link = .idle(retryAt: now + delay)
        trouble.failed("broker \(broker): \(reason); retrying with backoff (up to 60 s)")
        logger.log(.info, "broker \(broker): next attempt in \(EventLineNumber.format(delay)) s")
    }

    private func connectAnswered(_ rc: Int32) {
        let now = clock.now
        guard rc == 0 else {
            // Refused (bad credentials, say); the broker closes the connection.
            var answer = String(cString: mosquitto_connack_string(rc))
            if answer.hasSuffix(".") { answer.removeLast() }
            connectionFailed("refused the connection: \(answer)", now: now)
            if let client { mosquitto_disconnect(client) }
            return
        }
        link = .connected
        backoff.reset()
        let news = "broker \(broker): connected" + (everConnected ? " again" : "")
        if trouble.isFailing { trouble.succeeded(news) } else { logger.log(.notice, news) }
        everConnected = true
        perform(bridge.connected(now: now))
    }

    private func disconnected(_ rc: Int32) {
        // After a refusal or a failure already handled, the socket's closing says nothing new.
        if case .idle = link { return }
        connectionFailed(rc == 0 ? "disconnected" : describe(rc), now: clock.now)
    }

    private func check(_ rc: Int32, _ what: String) {
        guard rc != Int32(MOSQ_ERR_SUCCESS.rawValue) else { return }
        // loop_* close the socket and report through the disconnect callback; this catches the rest.
        if case .idle = link { return }
        connectionFailed(describe(rc), now: clock.now)
    }

    private func describe(_ rc: Int32) -> String {
        var text = String(cString: mosquitto_strerror(rc))
        if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { text = String(cString: strerror(errno)) }
        if rc == Int32(MOSQ_ERR_KEEPALIVE.rawValue) {
            text =
                "no answer within the keepalive (\(configuration.keepalive) s): the broker is stuck or unreachable"
        }
        if let libraryError { text += " (\(libraryError))" }
        return text
    }

    private func received(_ message: mosquitto_message) {
        guard let topic = message.topic.map({ String(cString: $0) }) else { return }
        let payload: [UInt8] =
            message.payloadlen > 0 && message.payload != nil
            ? Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen))) : []
        perform(bridge.message(topic: topic, payload: payload, retained: message.retain, now: clock.now))
    }

    // MARK: Doing what the bridge decided

    private func perform(_ actions: [BridgeAction]) {
        guard let client else { return }
        for action in actions {
            switch action {
            case .publish(let publication):
                // The state is republished every minute: QoS 0. Status and discovery: QoS 1.
                let qos: Int32 = publication.topic == bridge.settings.topics.state ? 0 : 1
                let bytes = Array(publication.payload.utf8)
                let rc = bytes.withUnsafeBytes { buffer in
                    mosquitto_publish(
                        client, nil, publication.topic, Int32(buffer.count), buffer.baseAddress, qos,
                        publication.retain)
                }
                if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                    logger.log(.warning, "cannot publish to \(publication.topic): \(describe(rc))")
                }
            case .subscribe(let topic):
                let rc = mosquitto_subscribe(client, nil, topic, 1)
                if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                    logger.log(.warning, "cannot subscribe to \(topic): \(describe(rc))")
                }
            case .control(let line):
                do {
                    try DaemonControl.send(line, to: configuration.controlPipe)
                } catch {
                    logger.log(.warning, "'\(line)' not delivered: \(error)")
                }
            case .warn(let message):
                logger.log(.warning, message)
            case .note(let message):
                logger.log(.notice, message)
            }
        }
    }

    // MARK: The daemon's pipe

    /// Reads what the pipe has without waiting; a message when it cannot be read at all.
    /// What the pipe has now, taken; why it cannot be followed, if it cannot.
    private func drain() -> String? {
        do {
            try follower.drain(take)
        } catch {
            return error.description
        }
        return nil
    }

    private func take(_ event: PipeFollower.Event) {
        switch event {
        case .timedOut:
            break
        case .missing:
            bridge.daemonLeft()
            logger.log(
                .warning,
                "waiting for \(configuration.pipe) to appear (is the daemon running, with it in [pipes] paths?)"
            )
        case .closed:
            bridge.daemonLeft()
            lines.close()
        case .opened:
            lines.close()
        case .data(let bytes):
            for line in lines.push(bytes) {
                perform(bridge.eventLine(String(decoding: line, as: UTF8.self), now: clock.now))
            }
            let skipped = lines.takeSkipped()
            if skipped > 0 {
                logger.log(.warning, "\(configuration.pipe): " + LineFramer.skippedMessage(skipped))
            }
        }
    }

    // MARK: Leaving

    /// `offline` by ourselves (a clean DISCONNECT discards the will), then the DISCONNECT, sent
    /// within two seconds or given up.
    private func shutDown() {
        guard let client, link == .connected else { return }
        perform(bridge.shuttingDown())
        // Idle first: the disconnect callback then knows the end was asked for.
        link = .idle(retryAt: .infinity)
        mosquitto_disconnect(client)
        let end = clock.now + 2
        while mosquitto_socket(client) >= 0, mosquitto_want_write(client), clock.now < end {
            let socket = FileDescriptor(rawValue: mosquitto_socket(client))
            _ = try? FileDescriptor.poll([(socket, Int16(POLLOUT))], milliseconds: 100)
            if mosquitto_loop_write(client, 1) != Int32(MOSQ_ERR_SUCCESS.rawValue) { break }
        }
    }
}

enum EventLineNumber {
    /// Seconds with one decimal, for log lines.
    static func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
