// The playground: plain DOM code against this gateway's own API, no framework, no other origin.
// A separate file (not inline) so the Content-Security-Policy needs no 'unsafe-inline'.
'use strict';

(function () {
  var KEY_STORAGE = 'tts-gateway-playground-key';
  /** The gateway's limit, in characters as it counts them (code points: an emoji is one, not two). */
  var MAX_TEXT_CHARACTERS = 10000;
  var MEDIA_TYPES = { mp3: 'audio/mpeg', opus: 'audio/ogg; codecs=opus', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };

  var element = function (id) { return document.getElementById(id); };
  var keyInput = element('api-key');
  var rememberBox = element('remember-key');
  var modelSelect = element('model');
  var languageSelect = element('language');
  var voiceSelect = element('voice');
  var errorRegion = element('error');
  var statusLine = element('status');
  var player = element('player');
  var appliedOutput = element('applied');
  var downloadLink = element('download');
  var speakButton = element('speak-button');

  /** Voices of the chosen model, as GET /v1/audio/voices answered them. */
  var voices = [];
  /** Lists asked for so far: an answer to an older question (the model changed meanwhile) is dropped. */
  var modelsAsked = 0;
  var voicesAsked = 0;
  /** Blob URLs of the last answer, revoked when the next one starts. */
  var objectUrls = [];

  function showError(message) { errorRegion.textContent = message; }
  function clearError() { errorRegion.textContent = ''; }
  function showStatus(message) { statusLine.textContent = message; }

  function apiKey() { return keyInput.value.trim(); }

  // Not the textarea's maxlength: that counts UTF-16 units, and would cut 10,000 characters of emoji at 5,000.
  function textCharacters() { return Array.from(element('text').value).length; }
  function showTextCount() {
    var count = element('text-count');
    var characters = textCharacters();
    count.textContent = characters.toLocaleString('en-US') + ' / ' + MAX_TEXT_CHARACTERS.toLocaleString('en-US') + ' characters';
    count.classList.toggle('over-limit', characters > MAX_TEXT_CHARACTERS);
  }

  // The key stays in memory unless the user asks to keep it for this tab (sessionStorage, never localStorage).
  function rememberKey() {
    try {
      if (rememberBox.checked && apiKey()) sessionStorage.setItem(KEY_STORAGE, apiKey());
      else sessionStorage.removeItem(KEY_STORAGE);
    } catch (ignored) { /* storage disabled: the key simply is not remembered */ }
  }

  function restoreKey() {
    try {
      var stored = sessionStorage.getItem(KEY_STORAGE);
      if (stored) { keyInput.value = stored; rememberBox.checked = true; }
    } catch (ignored) { /* storage disabled */ }
  }

  /** The message of an error answer: OpenAI's `error.message` (/v1) or the envelope's `message` (/api/v1), with when to retry. */
  async function errorMessage(response) {
    var message = 'The gateway answered ' + response.status + ' ' + response.statusText;
    try {
      var body = await response.json();
      if (body && body.error && typeof body.error.message === 'string') message = body.error.message;
      else if (body && typeof body.message === 'string') message = body.message;
    } catch (ignored) { /* not JSON (a proxy's page): the status says it */ }
    var retryAfter = response.headers.get('Retry-After');
    if (retryAfter && /^\d+$/.test(retryAfter) && !/retry after/i.test(message)) message += ' (retry after ' + retryAfter + ' s)';
    return message;
  }

  // fetch() rejects with the browser's bare "Failed to fetch" when no answer came at all: say what that means.
  async function callGateway(path, options) {
    try {
      return await fetch(path, options);
    } catch (error) {
      throw new Error('Could not reach the gateway: the network failed or the gateway is down. Check the connection and try again.');
    }
  }

  // A body that breaks off after the answer began (the synthesis failed midway, the connection dropped)
  // rejects with the browser's bare "network error": say that the audio is incomplete, and which request it was.
  function brokenStream(response, pieces) {
    var bytes = pieces.reduce(function (total, piece) { return total + piece.byteLength; }, 0);
    var id = response.headers.get('X-Request-Id');
    return new Error('The audio broke off after ' + bytes.toLocaleString('en-US') + ' bytes: the synthesis failed midway or the connection dropped, so it is incomplete.' + (id ? ' Request id: ' + id + '.' : ''));
  }

  async function readPiece(reader, response, pieces) {
    try {
      return await reader.read();
    } catch (error) {
      throw brokenStream(response, pieces);
    }
  }

  async function getJson(path) {
    var response = await callGateway(path, { headers: { Authorization: 'Bearer ' + apiKey() } });
    if (!response.ok) throw new Error(await errorMessage(response));
    return response.json();
  }

  function fillSelect(select, entries, keepValue) {
    var previous = select.value;
    select.replaceChildren();
    entries.forEach(function (entry) {
      var option = document.createElement('option');
      option.value = entry.value;
      option.textContent = entry.label;
      select.append(option);
    });
    if (keepValue && entries.some(function (entry) { return entry.value === previous; })) select.value = previous;
  }

  async function loadModels() {
    if (!apiKey()) { showError('Enter an API key first (or register / log in).'); return; }
    var characters = textCharacters();
    if (characters > MAX_TEXT_CHARACTERS) { showError('The text has ' + characters.toLocaleString('en-US') + ' characters; the gateway takes at most ' + MAX_TEXT_CHARACTERS.toLocaleString('en-US') + '.'); return; }
    clearError();
    var asked = ++modelsAsked;
    try {
      var list = await getJson('v1/models');
      if (asked !== modelsAsked) return;
      var ids = list.data.map(function (model) { return model.id; });
      fillSelect(modelSelect, ids.map(function (id) { return { value: id, label: id }; }), true);
      if (!ids.includes(modelSelect.value) || !modelSelect.value) modelSelect.value = ids.includes('tts-1') ? 'tts-1' : ids[0];
      await loadVoices();
    } catch (error) {
      if (asked === modelsAsked) showError(error.message);
    }
  }

  async function loadVoices() {
    clearError();
    var asked = ++voicesAsked;
    try {
      var answer = await getJson('v1/audio/voices?model=' + encodeURIComponent(modelSelect.value));
      if (asked !== voicesAsked) return;
      voices = answer.voices;
      var languages = Array.from(new Set(voices.map(function (voice) { return voice.language; }))).sort();
      fillSelect(languageSelect, [{ value: '', label: 'All languages' }].concat(languages.map(function (language) { return { value: language, label: language }; })), true);
      showVoices();
    } catch (error) {
      if (asked !== voicesAsked) return;
      voices = [];
      showVoices();
      showError(error.message);
    }
  }

  function showVoices() {
    var language = languageSelect.value;
    var shown = voices.filter(function (voice) { return !language || voice.language === language; });
    fillSelect(voiceSelect, shown.map(function (voice) {
      var label = voice.name && voice.name !== voice.id ? voice.id + ' (' + voice.name + ', ' + voice.language + ')' : voice.id + ' (' + voice.language + ')';
      return { value: voice.id, label: label };
    }), true);
  }

  async function account(action) {
    clearError();
    var email = element('account-email');
    var password = element('account-password');
    if (!email.reportValidity() || !password.reportValidity()) return;
    try {
      var response = await callGateway('api/v1/auth/' + action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: email.value, password: password.value }),
      });
      if (!response.ok) throw new Error(await errorMessage(response));
      var body = await response.json();
      keyInput.value = body.data.apiKey;
      password.value = '';
      rememberKey();
      showStatus(body.message);
      await loadModels();
    } catch (error) {
      showError(error.message);
    }
  }

  function resetResult() {
    objectUrls.forEach(function (url) { URL.revokeObjectURL(url); });
    objectUrls = [];
    player.removeAttribute('src');
    player.load();
    appliedOutput.textContent = '';
    downloadLink.hidden = true;
    downloadLink.removeAttribute('href');
  }

  function objectUrl(source) {
    var url = URL.createObjectURL(source);
    objectUrls.push(url);
    return url;
  }

  // play() refuses when the browser blocks autoplay; the controls are there to start it by hand.
  function startPlaying() {
    var started = player.play();
    if (started && typeof started.catch === 'function') started.catch(function () { showStatus('Press play to listen.'); });
  }

  function waitForUpdate(buffer) {
    return new Promise(function (resolve, reject) {
      function done() { buffer.removeEventListener('error', failed); resolve(); }
      function failed() { buffer.removeEventListener('updateend', done); reject(new Error('The browser could not decode the streamed audio.')); }
      buffer.addEventListener('updateend', done, { once: true });
      buffer.addEventListener('error', failed, { once: true });
    });
  }

  /** mp3 plays while it arrives: each piece of the body is appended to a MediaSource buffer. */
  async function playStreaming(reader, response, pieces) {
    var source = new MediaSource();
    player.src = objectUrl(source);
    await new Promise(function (resolve) { source.addEventListener('sourceopen', resolve, { once: true }); });
    var buffer = source.addSourceBuffer('audio/mpeg');
    var started = false;
    try {
      for (var next = await readPiece(reader, response, pieces); !next.done; next = await readPiece(reader, response, pieces)) {
        pieces.push(next.value);
        buffer.appendBuffer(next.value);
        await waitForUpdate(buffer);
        if (!started) { started = true; startPlaying(); }
      }
    } finally {
      // Ended on a failure too: what arrived plays to its end instead of the player waiting for more.
      if (source.readyState === 'open' && !buffer.updating) source.endOfStream();
    }
  }

  async function readAll(reader, response, pieces) {
    for (var next = await readPiece(reader, response, pieces); !next.done; next = await readPiece(reader, response, pieces)) pieces.push(next.value);
  }

  async function speak(event) {
    event.preventDefault();
    clearError();
    resetResult();
    if (!apiKey()) { showError('Enter an API key first (or register / log in).'); return; }
    var characters = textCharacters();
    if (characters > MAX_TEXT_CHARACTERS) { showError('The text has ' + characters.toLocaleString('en-US') + ' characters; the gateway takes at most ' + MAX_TEXT_CHARACTERS.toLocaleString('en-US') + '.'); return; }
    var format = element('format').value;
    var body = {
      model: modelSelect.value,
      voice: voiceSelect.value,
      input: element('text').value,
      response_format: format,
      speed: Number(element('speed').value),
      pitch: Number(element('pitch').value),
      volume: Number(element('volume').value),
    };
    speakButton.disabled = true;
    showStatus('Speaking...');
    try {
      var response = await callGateway('v1/audio/speech', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + apiKey() },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(await errorMessage(response));
      appliedOutput.textContent = response.headers.get('X-TTS-Applied') || '(not sent)';
      var reader = response.body.getReader();
      var pieces = [];
      var streams = format === 'mp3' && typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported('audio/mpeg');
      if (streams) await playStreaming(reader, response, pieces);
      else await readAll(reader, response, pieces);
      var blob = new Blob(pieces, { type: MEDIA_TYPES[format] });
      if (!streams && format !== 'pcm') { player.src = objectUrl(blob); startPlaying(); }
      downloadLink.href = objectUrl(blob);
      downloadLink.download = 'speech.' + format;
      downloadLink.textContent = 'Download speech.' + format + ' (' + blob.size + ' bytes)';
      downloadLink.hidden = false;
      showStatus(format === 'pcm' ? 'Raw PCM cannot be played by the browser; download it instead.' : 'Done.');
    } catch (error) {
      showStatus('');
      showError(error.message);
    } finally {
      speakButton.disabled = false;
    }
  }

  function showSliderValue(id) {
    var slider = element(id);
    var output = element(id + '-value');
    var update = function () { output.textContent = Number(slider.value).toFixed(2); };
    slider.addEventListener('input', update);
    update();
  }

  player.addEventListener('error', function () {
    if (player.getAttribute('src')) showError('The browser could not play this audio; try another format or download it.');
  });
  keyInput.addEventListener('change', function () { rememberKey(); if (apiKey()) loadModels(); });
  rememberBox.addEventListener('change', rememberKey);
  element('register-button').addEventListener('click', function () { account('register'); });
  element('login-button').addEventListener('click', function () { account('login'); });
  element('load-models-button').addEventListener('click', loadModels);
  modelSelect.addEventListener('change', loadVoices);
  languageSelect.addEventListener('change', showVoices);
  element('speech-form').addEventListener('submit', speak);
  ['speed', 'pitch', 'volume'].forEach(showSliderValue);
  element('text').addEventListener('input', showTextCount);
  showTextCount();

  restoreKey();
  if (apiKey()) loadModels();
})();
