/// The page `mediabench webrtc` serves at `/`: a call button, a level meter of what the engine
/// sends, the engine's live quality line (polled from `/stats`) and the browser's own
/// `getStats()` figures.
///
/// Opened as `/#autotest=SECONDS` it calls at once, records what it hears for SECONDS through
/// WebAudio, and posts that recording (16-bit WAV) with its `getStats()` report to `/result`:
/// the way the Chromium test drives it.
enum WebRTCPage {
    /// The whole page.
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>MediaEngine WebRTC</title>
        <style>
        body { font: 16px system-ui, sans-serif; margin: 2em; max-width: 52em; background: #f6f7f9; color: #222; }
        h1 { font-size: 1.4em; }
        button { font-size: 1.1em; padding: .5em 1.4em; margin-right: .6em; border-radius: .4em; border: 1px solid #888; }
        #call { background: #2e7d32; color: white; } #hangup { background: #c62828; color: white; }
        meter { width: 100%; height: 1.6em; }
        .box { background: white; border: 1px solid #ddd; border-radius: .5em; padding: .8em 1em; margin: 1em 0; }
        code, pre { font: 14px ui-monospace, monospace; white-space: pre-wrap; }
        </style></head>
        <body>
        <h1>Talk to the MediaEngine</h1>
        <p>Opus over DTLS-SRTP with ICE-lite, answered by <code>mediabench webrtc</code>.</p>
        <button id="call">Call</button><button id="hangup" disabled>Hang up</button>
        <div class="box"><div>State: <b id="state">idle</b></div>
        <div>Level of what the engine sends:</div><meter id="level" min="0" max="1" value="0"></meter></div>
        <div class="box"><div>Engine's quality line:</div><pre id="quality">-</pre></div>
        <div class="box"><div>Browser's getStats():</div><pre id="browser">-</pre></div>
        <audio id="remote" autoplay></audio>
        <script>
        const $ = (id) => document.getElementById(id);
        let pc = null, analyser = null, recorder = null, recorded = [], sampleRate = 48000;
        function setState(text) { $('state').textContent = text; }
        async function statsSummary() {
          const out = {};
          if (!pc) return out;
          (await pc.getStats()).forEach((r) => {
            if (r.type === 'inbound-rtp' && r.kind === 'audio') Object.assign(out, { packetsReceived: r.packetsReceived,
              packetsLost: r.packetsLost, jitter: r.jitter, bytesReceived: r.bytesReceived, totalAudioEnergy: r.totalAudioEnergy });
            if (r.type === 'outbound-rtp' && r.kind === 'audio') Object.assign(out, { packetsSent: r.packetsSent, bytesSent: r.bytesSent });
            if (r.type === 'remote-inbound-rtp') out.roundTripTime = r.roundTripTime;
            if (r.type === 'transport') Object.assign(out, { dtlsState: r.dtlsState, srtpCipher: r.srtpCipher,
              dtlsCipher: r.dtlsCipher, tlsVersion: r.tlsVersion, dtlsRole: r.dtlsRole });
            if (r.type === 'codec' && r.mimeType && r.mimeType.startsWith('audio/opus')) out.codec = r.mimeType + '/' + r.clockRate;
          });
          return out;
        }
        async function call() {
          $('call').disabled = true; setState('getting microphone');
          // The engine does its own echo cancelling and denoising: hand it the microphone as it is.
          const local = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
          pc = new RTCPeerConnection();
          local.getTracks().forEach((t) => pc.addTrack(t, local));
          pc.ontrack = (event) => {
            const stream = new MediaStream([event.track]);
            $('remote').srcObject = stream;
            const context = new AudioContext({ sampleRate: 48000 });
            sampleRate = context.sampleRate;
            const source = context.createMediaStreamSource(stream);
            analyser = context.createAnalyser(); analyser.fftSize = 1024; source.connect(analyser);
            recorder = context.createScriptProcessor(4096, 1, 1);
            recorder.onaudioprocess = (e) => { if (recording) recorded.push(new Float32Array(e.inputBuffer.getChannelData(0))); };
            source.connect(recorder); recorder.connect(context.destination);
          };
          pc.onconnectionstatechange = () => setState(pc.connectionState);
          await pc.setLocalDescription(await pc.createOffer());
          setState('offering');
          const response = await fetch('/offer', { method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ sdp: pc.localDescription.sdp, type: 'offer' }) });
          if (!response.ok) { setState('refused: ' + await response.text()); return; }
          await pc.setRemoteDescription(await response.json());
          $('hangup').disabled = false;
        }
        function hangUp() { if (pc) pc.close(); setState('hung up'); $('hangup').disabled = true; $('call').disabled = false; }
        let recording = false;
        setInterval(async () => {
          if (analyser) {
            const data = new Float32Array(analyser.fftSize); analyser.getFloatTimeDomainData(data);
            let sum = 0; for (const v of data) sum += v * v;
            $('level').value = Math.min(1, Math.sqrt(sum / data.length) * 4);
          }
          try { const s = await (await fetch('/stats')).json(); $('quality').textContent = s.quality || s.state; } catch (e) {}
          if (pc) $('browser').textContent = JSON.stringify(await statsSummary(), null, 1);
        }, 1000);
        function wav(chunks, rate) {
          const count = chunks.reduce((n, c) => n + c.length, 0), buffer = new ArrayBuffer(44 + 2 * count), v = new DataView(buffer);
          const text = (o, s) => { for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i)); };
          text(0, 'RIFF'); v.setUint32(4, 36 + 2 * count, true); text(8, 'WAVEfmt '); v.setUint32(16, 16, true);
          v.setUint16(20, 1, true); v.setUint16(22, 1, true); v.setUint32(24, rate, true); v.setUint32(28, 2 * rate, true);
          v.setUint16(32, 2, true); v.setUint16(34, 16, true); text(36, 'data'); v.setUint32(40, 2 * count, true);
          let o = 44; for (const c of chunks) for (const s of c) { v.setInt16(o, Math.max(-1, Math.min(1, s)) * 32767, true); o += 2; }
          return new Uint8Array(buffer);
        }
        async function autotest(seconds) {
          await call();
          recording = true;
          await new Promise((r) => setTimeout(r, seconds * 1000));
          recording = false;
          const stats = await statsSummary();
          const bytes = wav(recorded, sampleRate);
          let binary = ''; for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
          await fetch('/result', { method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ stats, wav: btoa(binary) }) });
          hangUp(); setState('autotest done');
        }
        $('call').onclick = () => call().catch((e) => setState('error: ' + e));
        $('hangup').onclick = hangUp;
        const auto = location.hash.match(/autotest=(\\d+)/);
        if (auto) autotest(Number(auto[1])).catch((e) => setState('error: ' + e));
        </script></body></html>
        """
}
