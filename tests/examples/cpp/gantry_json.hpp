// gantry_json.hpp: the little JSON reader and writer gantry carries (the standard library
// has none). Values are a tagged struct; objects are std::map, so keys come out sorted
// and a key given twice is caught while reading. Numbers are kept as double, as JSON's
// own model has them, with a flag saying whether the text was a whole number.
#pragma once

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gjson {

struct Value;
using Object = std::map<std::string, Value>;
using Array = std::vector<Value>;

struct Value {
    enum class Kind { Null, Bool, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool b = false;
    double num = 0;
    bool whole = false;  // the number was written without '.' or an exponent
    std::string str;
    std::shared_ptr<Array> arr;
    std::shared_ptr<Object> obj;

    Value() = default;
    static Value boolean(bool v) { Value x; x.kind = Kind::Bool; x.b = v; return x; }
    static Value number(double v) {
        Value x; x.kind = Kind::Number; x.num = v; x.whole = std::floor(v) == v; return x;
    }
    static Value string(std::string v) { Value x; x.kind = Kind::String; x.str = std::move(v); return x; }
    static Value array(Array v = {}) {
        Value x; x.kind = Kind::Array; x.arr = std::make_shared<Array>(std::move(v)); return x;
    }
    static Value object(Object v = {}) {
        Value x; x.kind = Kind::Object; x.obj = std::make_shared<Object>(std::move(v)); return x;
    }
    bool isNull() const { return kind == Kind::Null; }
    bool isString() const { return kind == Kind::String; }
    bool isNumber() const { return kind == Kind::Number; }
    bool isArray() const { return kind == Kind::Array; }
    bool isObject() const { return kind == Kind::Object; }
    bool has(const std::string& k) const { return isObject() && obj->count(k) > 0; }
    const Value& operator[](const std::string& k) const {
        static const Value none;
        if (!isObject()) return none;
        auto it = obj->find(k);
        return it == obj->end() ? none : it->second;
    }
};

struct ParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Reader {
  public:
    explicit Reader(const std::string& s) : s_(s) {}
    Value parse() {
        space();
        Value v = value();
        space();
        if (i_ != s_.size()) fail("text after the value");
        return v;
    }

  private:
    const std::string& s_;
    size_t i_ = 0;

    [[noreturn]] void fail(const std::string& why) {
        throw ParseError(why + " at character " + std::to_string(i_));
    }
    void space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) ++i_;
    }
    bool word(const char* w) {
        size_t n = std::char_traits<char>::length(w);
        if (s_.compare(i_, n, w) == 0) { i_ += n; return true; }
        return false;
    }
    Value value() {
        if (i_ >= s_.size()) fail("unexpected end");
        char c = s_[i_];
        if (c == '{') return objectValue();
        if (c == '[') return arrayValue();
        if (c == '"') return Value::string(stringValue());
        if (word("true")) return Value::boolean(true);
        if (word("false")) return Value::boolean(false);
        if (word("null")) return Value();
        return numberValue();
    }
    Value objectValue() {
        Object m;
        ++i_;
        space();
        if (i_ < s_.size() && s_[i_] == '}') { ++i_; return Value::object(std::move(m)); }
        for (;;) {
            space();
            if (i_ >= s_.size() || s_[i_] != '"') fail("expected a key");
            std::string k = stringValue();
            if (m.count(k)) fail("the key \"" + k + "\" given twice");
            space();
            if (i_ >= s_.size() || s_[i_] != ':') fail("expected ':'");
            ++i_;
            space();
            m[k] = value();
            space();
            if (i_ >= s_.size()) fail("unexpected end");
            char c = s_[i_++];
            if (c == '}') return Value::object(std::move(m));
            if (c != ',') fail("expected ',' or '}'");
        }
    }
    Value arrayValue() {
        Array a;
        ++i_;
        space();
        if (i_ < s_.size() && s_[i_] == ']') { ++i_; return Value::array(std::move(a)); }
        for (;;) {
            space();
            a.push_back(value());
            space();
            if (i_ >= s_.size()) fail("unexpected end");
            char c = s_[i_++];
            if (c == ']') return Value::array(std::move(a));
            if (c != ',') fail("expected ',' or ']'");
        }
    }
    static void utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) { out += static_cast<char>(cp); return; }
        if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
        } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        }
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    std::string stringValue() {
        std::string out;
        ++i_;
        for (;;) {
            if (i_ >= s_.size()) fail("unterminated string");
            char c = s_[i_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
            if (c != '\\') { out += c; continue; }
            if (i_ >= s_.size()) fail("unterminated string");
            char e = s_[i_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    if (i_ + 4 > s_.size()) fail("a short \\u escape");
                    utf8(out, static_cast<unsigned>(std::stoul(s_.substr(i_, 4), nullptr, 16)));
                    i_ += 4;
                    break;
                }
                default: fail(std::string("an unknown escape \\") + e);
            }
        }
    }
    Value numberValue() {
        size_t start = i_;
        bool whole = true;
        if (i_ < s_.size() && s_[i_] == '-') ++i_;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        if (i_ < s_.size() && s_[i_] == '.') {
            whole = false;
            ++i_;
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            whole = false;
            ++i_;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        }
        std::string t = s_.substr(start, i_ - start);
        if (t.empty() || t == "-") fail("not a value");
        double d = std::strtod(t.c_str(), nullptr);
        if (std::isinf(d)) fail("a number too large");
        Value v = Value::number(d);
        v.whole = whole;
        return v;
    }
};

inline Value parse(const std::string& text) { return Reader(text).parse(); }

// How numbers are written. The author read in docs/protocol.md that an integer must be
// written as one, so a whole double goes out through long long; `--wire=float` writes
// them as a double prints with a decimal point ("3.0"), the habit the docs forbid.
inline bool& floatWire() { static bool on = false; return on; }

inline void quote(std::ostream& os, const std::string& s) {
    os << '"';
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') os << '\\' << c;
        else if (u < 0x20) os << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(u) << std::dec;
        else os << c;
    }
    os << '"';
}

inline void write(std::ostream& os, const Value& v) {
    switch (v.kind) {
        case Value::Kind::Null: os << "null"; return;
        case Value::Kind::Bool: os << (v.b ? "true" : "false"); return;
        case Value::Kind::Number:
            if (std::floor(v.num) == v.num && std::fabs(v.num) < 1e15) {
                os << static_cast<long long>(v.num);
                if (floatWire()) os << ".0";
            } else {
                os << std::setprecision(17) << v.num;
            }
            return;
        case Value::Kind::String: quote(os, v.str); return;
        case Value::Kind::Array: {
            os << '[';
            bool first = true;
            for (const Value& x : *v.arr) {
                if (!first) os << ',';
                first = false;
                write(os, x);
            }
            os << ']';
            return;
        }
        case Value::Kind::Object: {
            os << '{';
            bool first = true;
            for (const auto& kv : *v.obj) {
                if (!first) os << ',';
                first = false;
                quote(os, kv.first);
                os << ':';
                write(os, kv.second);
            }
            os << '}';
            return;
        }
    }
}

inline std::string dump(const Value& v) {
    std::ostringstream os;
    write(os, v);
    return os.str();
}

}  // namespace gjson
